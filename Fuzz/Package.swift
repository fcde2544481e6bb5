// swift-tools-version: 6.0
//
// The fuzz targets of nearby-conformance: one libFuzzer executable per entry point of the
// decoder, each a few lines handing libFuzzer's input to a `FuzzTarget` of the main
// package (Sources/NearbyFuzzTargets), where its invariants and seeds are defined. Build and
// run them with `Fuzz/run` (see Fuzz/README.md); a plain `swift build` here cannot link
// them, since libFuzzer supplies `main`.
import PackageDescription

let package = Package(
    name: "nearby-conformance-fuzz",
    dependencies: [
        .package(name: "nearby-conformance", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "fuzz-capture-pcap",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-capture-pcapng",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-capture-btsnoop",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-capture-hex-text",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-hci-records", dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]
        ),
        .executableTarget(
            name: "fuzz-link-layer-records",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-ad-structures",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-eddystone-frame",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-ibeacon-frame",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-altbeacon-frame",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-token-advertisement",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-vector-json", dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]
        ),
        .executableTarget(
            name: "fuzz-scenario-json",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-registry-json",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-nut-samples", dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]
        ),
        .executableTarget(
            name: "fuzz-nut-codeword",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
        .executableTarget(
            name: "fuzz-display-filter",
            dependencies: [.product(name: "NearbyFuzzTargets", package: "nearby-conformance")]),
    ],
    swiftLanguageModes: [.v6]
)
