// swift-tools-version: 6.2
//
// An SDK team's package, as it would use nearby-conformance: a small beacon decoder of its
// own (BeaconDecoder), and tests that decode frames and a capture with the reference, replay a
// scenario, and hold the decoder to the frame vectors in-process. It depends on the
// repository by path; a team depends on it by URL and version instead.
import PackageDescription

let package = Package(
    name: "beacon-decoder-example",
    platforms: [.macOS(.v26)],
    products: [.library(name: "BeaconDecoder", targets: ["BeaconDecoder"])],
    dependencies: [.package(name: "nearby-conformance", path: "../..")],
    targets: [
        .target(name: "BeaconDecoder"),
        .testTarget(
            name: "BeaconDecoderTests",
            dependencies: [
                "BeaconDecoder",
                .product(name: "NearbyConformance", package: "nearby-conformance"),
                .product(name: "NearbyConformanceTesting", package: "nearby-conformance"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
