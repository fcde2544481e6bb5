// swift-tools-version: 6.2
//
// nearby-conformance: the open reference decoder and conformance suite for
// Nearby-Messages-style proximity systems. Layers, lowest first (a layer never
// imports a higher one):
//
//   CPcap, CSndFile   thin system-library targets (pkg-config libpcap, sndfile)
//   CProcessControl   prctl(2)'s child-subreaper options, which Swift cannot call directly
//   NearbySystem      the one module that calls the C library (on swift-system): files,
//                     descriptors, temporary files, whole-file output, processes, sockets,
//                     signals, clocks
//   NearbyBytes       the byte cursor, typed decode and path errors, hex helpers
//   NearbyText        text for people: printf-style numbers, XML and HTML escaping
//   NearbyCapture     capture containers, link layers, HCI reports -> Advertisement
//   NearbyLive        live HCI sources (Bumble over TCP, Linux monitor and user channels)
//                     read as captures are read, and the capture they write
//   NearbyFormats     AD structures and beacon frames (Eddystone, iBeacon, AltBeacon)
//   NearbySecurity    Eddystone EID and eTLM: AES-EAX, EID computation and resolution,
//                     identity keys by X25519 + HKDF (swift-crypto)
//   NearbyJSON        deterministic JSON output, a strict parser, path-aware input readers
//   NearbyAudio       NUT v1 audio tokens: byte layer, modems, sound files (libsndfile)
//   NearbyDecode      capture file -> decoded advertisements, accounting (Pipeline/), and
//                     their JSON and text forms (Rendering/); no audio library
//   NearbyDecodeSession  the `decode` command's session: files and sound files, jobs, live
//                     sources, output formats, and its outcome
//   NearbyMessages    the model, registry, subscription engine and scenario files
//   NearbySynthesis   a scenario's world -> synthesized captures and their ground truth
//   NearbyReplay      captures + sound files + scenario -> sightings -> engine events
//   NearbyTimeline    the HTML timeline of a replay or of decoded captures
//   NearbyRunner      vectors, check, coverage, generated vectors, reports
//   NearbyInterop     the interop protocol: validate (a process or an in-process value),
//                     its supervision, and matrix
//   NearbyConformance the front door for Swift code: frames, captures, beacons, EID, replay,
//                     as owned values (no pointers, no callbacks)
//   NearbyConformanceTesting  the vectors as resources, run in-process against an
//                     implementation given as a Swift value (Swift Testing issues)
//   NearbyFuzzTargets every entry point as a fuzz target with its invariants and seeds
//                     (the libFuzzer executables live in the separate package Fuzz/)
//   nearby-conformance  the command-line tool
import Foundation
import PackageDescription

/// `ByteCursor` borrows the bytes it reads (a `Span`, no reference count per field); a
/// type that borrows, and functions returning one, declare their lifetime dependence with
/// `@_lifetime`, which Swift 6.x still gates behind this experimental feature. Not an
/// unsafe flag: the package stays usable as a dependency.
let borrowedBytes: [SwiftSetting] = [.enableExperimentalFeature("Lifetimes")]

let package = Package(
    name: "nearby-conformance",
    platforms: [.macOS(.v26)],
    products: [
        .executable(name: "nearby-conformance", targets: ["nearby-conformance"]),
        .library(name: "NearbyConformance", targets: ["NearbyConformance"]),
        .library(name: "NearbyConformanceTesting", targets: ["NearbyConformanceTesting"]),
        .library(name: "NearbyBytes", targets: ["NearbyBytes"]),
        .library(name: "NearbyText", targets: ["NearbyText"]),
        .library(name: "NearbyCapture", targets: ["NearbyCapture"]),
        .library(name: "NearbyLive", targets: ["NearbyLive"]),
        .library(name: "NearbyFormats", targets: ["NearbyFormats"]),
        .library(name: "NearbySecurity", targets: ["NearbySecurity"]),
        .library(name: "NearbyJSON", targets: ["NearbyJSON"]),
        .library(name: "NearbyAudio", targets: ["NearbyAudio"]),
        .library(name: "NearbyDecode", targets: ["NearbyDecode"]),
        .library(name: "NearbyDecodeSession", targets: ["NearbyDecodeSession"]),
        .library(name: "NearbyMessages", targets: ["NearbyMessages"]),
        .library(name: "NearbySynthesis", targets: ["NearbySynthesis"]),
        .library(name: "NearbyReplay", targets: ["NearbyReplay"]),
        .library(name: "NearbyTimeline", targets: ["NearbyTimeline"]),
        .library(name: "NearbyRunner", targets: ["NearbyRunner"]),
        .library(name: "NearbyInterop", targets: ["NearbyInterop"]),
        .library(name: "NearbyFuzzTargets", targets: ["NearbyFuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        // Documentation (`swift package generate-documentation`): a plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPcap",
            pkgConfig: "libpcap",
            providers: [.apt(["libpcap-dev"]), .brew(["libpcap"])]
        ),
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile", "pkg-config"])]
        ),
        .systemLibrary(name: "CProcessControl"),
        .target(
            name: "NearbySystem",
            dependencies: ["CProcessControl", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "NearbyBytes", dependencies: ["NearbySystem"], swiftSettings: borrowedBytes),
        .target(name: "NearbyText", dependencies: ["NearbySystem"]),
        .target(
            name: "NearbyCapture", dependencies: ["NearbyBytes", "NearbySystem", "CPcap"], swiftSettings: borrowedBytes),
        .target(name: "NearbyLive", dependencies: ["NearbyBytes", "NearbyCapture", "NearbySystem"]),
        .target(name: "NearbyFormats", dependencies: ["NearbyBytes"], swiftSettings: borrowedBytes),
        .target(
            name: "NearbySecurity",
            dependencies: [
                "NearbyBytes", "NearbyFormats",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "NearbyJSON", dependencies: ["NearbyBytes", "NearbySystem"]),
        .target(
            name: "NearbyAudio",
            dependencies: ["CSndFile", "NearbyBytes", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(name: "NearbyMessages", dependencies: ["NearbyBytes", "NearbyJSON", "NearbySecurity"]),
        .target(
            name: "NearbyDecode",
            dependencies: [
                "NearbyBytes", "NearbyCapture", "NearbyFormats", "NearbyJSON", "NearbySecurity", "NearbySystem",
                "NearbyText",
            ]
        ),
        .target(
            name: "NearbyDecodeSession",
            dependencies: [
                "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyJSON",
                "NearbySystem", "NearbyText",
            ]),
        .target(
            name: "NearbySynthesis",
            dependencies: [
                "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyFormats", "NearbyJSON", "NearbyMessages",
                "NearbySecurity", "NearbySystem", "NearbyText",
                .product(name: "RealModule", package: "swift-numerics"),
            ]),
        .target(
            name: "NearbyReplay",
            dependencies: [
                "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyJSON",
                "NearbyLive", "NearbyMessages", "NearbySystem",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "NearbyTimeline",
            dependencies: [
                "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyJSON", "NearbyMessages",
                "NearbyReplay", "NearbyText",
            ]
        ),
        .target(
            name: "NearbyRunner",
            dependencies: [
                "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyJSON",
                "NearbyMessages", "NearbyReplay", "NearbySynthesis", "NearbySystem", "NearbyText",
            ]
        ),
        .target(
            name: "NearbyInterop",
            dependencies: [
                "NearbyBytes", "NearbyDecode", "NearbyJSON", "NearbyMessages", "NearbyReplay", "NearbyRunner",
                "NearbySystem",
            ]
        ),
        .target(
            name: "NearbyConformance",
            dependencies: [
                "NearbyBytes", "NearbyDecode", "NearbyJSON", "NearbyMessages", "NearbyReplay", "NearbyRunner",
                "NearbySecurity",
            ]
        ),
        // The vectors and the captures and sound files they name are this target's resources.
        // SwiftPM copies a resource only from inside the target's folder (a symbolic link is
        // copied as a link), so the target's folder is the package's, holding `Vectors/` and
        // `Captures/` where the repository keeps them; everything else there is excluded.
        .target(
            name: "NearbyConformanceTesting",
            dependencies: ["NearbyConformance", "NearbyInterop", "NearbyJSON", "NearbyReplay", "NearbyRunner"],
            path: ".",
            exclude: foldersBesideTheVectors,
            sources: testingSources,
            resources: [.copy("Vectors"), .copy("Captures")]
        ),
        .executableTarget(
            name: "nearby-conformance",
            dependencies: [
                "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyDecodeSession",
                "NearbyInterop", "NearbyJSON", "NearbyLive", "NearbyMessages", "NearbyReplay", "NearbyRunner",
                "NearbySecurity", "NearbySynthesis", "NearbySystem", "NearbyText", "NearbyTimeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        .target(
            name: "NearbyFuzzTargets",
            dependencies: [
                "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyDecodeSession", "NearbyFormats",
                "NearbyJSON", "NearbyMessages", "NearbyRunner", "NearbySystem",
            ]
        ),
        // Throughput figures (release build; not run by `swift test`).
        .executableTarget(
            name: "nearby-benchmarks",
            dependencies: [
                "CPcap", "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyJSON",
                "NearbyMessages", "NearbyReplay", "NearbyRunner", "NearbySynthesis", "NearbySystem",
            ]
        ),
        // The plain engine model and the scenario generator that the engine's and the replay's
        // differential tests share (never shipped).
        .target(
            name: "NearbyModelSupport",
            dependencies: ["NearbyBytes", "NearbyJSON", "NearbyMessages", "NearbySecurity", "NearbySynthesis"],
            path: "Tests/NearbyModelSupport"),
        // Vectors, fixture builders and paths shared by the test targets (never shipped).
        .target(
            name: "NearbyTestSupport", dependencies: ["NearbyBytes", "NearbyCapture", "NearbySynthesis"],
            path: "Tests/NearbyTestSupport"),
        .testTarget(name: "NearbySystemTests", dependencies: ["NearbySystem"]),
        .testTarget(name: "NearbyBytesTests", dependencies: ["NearbyBytes"]),
        .testTarget(name: "NearbyTextTests", dependencies: ["NearbyText"]),
        .testTarget(
            name: "NearbyCaptureTests",
            dependencies: ["NearbyCapture", "NearbyBytes", "NearbySystem", "NearbyTestSupport"]),
        .testTarget(
            name: "NearbyLiveTests",
            dependencies: ["NearbyLive", "NearbyCapture", "NearbyDecode", "NearbyTestSupport"]),
        .testTarget(name: "NearbyFormatsTests", dependencies: ["NearbyFormats", "NearbyBytes", "NearbyTestSupport"]),
        .testTarget(
            name: "NearbyDecodeTests",
            dependencies: [
                "NearbyDecode", "NearbyDecodeSession", "NearbySynthesis", "NearbyCapture", "NearbyFormats",
                "NearbyBytes",
                "NearbyJSON", "NearbySecurity", "NearbyFuzzTargets", "NearbyTestSupport",
            ]
        ),
        .testTarget(name: "NearbyJSONTests", dependencies: ["NearbyJSON"]),
        .testTarget(
            name: "NearbyConformanceTests",
            dependencies: ["NearbyConformance", "NearbyConformanceTesting", "NearbyTestSupport"]),
        .testTarget(
            name: "NearbySecurityTests",
            dependencies: ["NearbySecurity", "NearbyFormats", "NearbyBytes", "NearbySynthesis", "NearbyTestSupport"]),
        .testTarget(
            name: "NearbyAudioTests",
            dependencies: ["NearbyAudio", "NearbyBytes", "NearbySynthesis", "NearbyTestSupport"]),
        .testTarget(
            name: "NearbyMessagesTests",
            dependencies: [
                "NearbyMessages", "NearbySecurity", "NearbyJSON", "NearbyBytes", "NearbySynthesis",
                "NearbyModelSupport",
                "NearbyTestSupport",
            ]),
        .testTarget(
            name: "NearbySynthesisTests",
            dependencies: [
                "NearbySynthesis", "NearbyAudio", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyJSON",
                "NearbyBytes", "NearbyTestSupport",
            ]
        ),
        .testTarget(
            name: "NearbyRunnerTests",
            dependencies: [
                "NearbyRunner", "NearbyInterop", "NearbyFormats", "NearbyReplay", "NearbySynthesis", "NearbyMessages",
                "NearbyDecode", "NearbyCapture", "NearbyJSON", "NearbySystem", "NearbyTestSupport",
            ]
        ),
        .testTarget(
            name: "NearbyInteropTests",
            dependencies: [
                "NearbyInterop", "NearbyRunner", "NearbyJSON", "NearbyMessages", "NearbySystem", "NearbyTestSupport",
            ]
        ),
        .testTarget(
            name: "NearbyReplayTests",
            dependencies: [
                "NearbyReplay", "NearbyCapture", "NearbyDecode", "NearbyFormats", "NearbyMessages", "NearbyBytes",
                "NearbyModelSupport", "NearbyTestSupport",
            ]
        ),
        .testTarget(
            name: "NearbyTimelineTests",
            dependencies: [
                "NearbyTimeline", "NearbyReplay", "NearbyMessages", "NearbyDecode", "NearbyCapture",
                "NearbyTestSupport",
            ]
        ),
        .testTarget(
            name: "NearbyFuzzTargetsTests",
            dependencies: ["NearbyFuzzTargets", "NearbyAudio", "NearbyBytes", "NearbyCapture", "NearbyTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The Swift files of `Sources/NearbyConformanceTesting` (its documentation catalog beside
/// them is found as any target's is).
var testingSources: [String] {
    let folder = "Sources/NearbyConformanceTesting"
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    let files = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
    return files.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
}

/// Every entry of the package's folder but `Vectors/`, `Captures/` and the testing target's
/// sources (hidden ones, `.build` among them, SwiftPM passes over by itself): what the
/// `NearbyConformanceTesting` target, whose folder is the package's, excludes.
var foldersBesideTheVectors: [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    let sources = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Sources")) ?? []
    return entries.filter { !$0.hasPrefix(".") && !["Vectors", "Captures", "Sources"].contains($0) }.sorted()
        + sources.filter { !$0.hasPrefix(".") && $0 != "NearbyConformanceTesting" }.sorted().map { "Sources/" + $0 }
}
