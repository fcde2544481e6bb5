import ArgumentParser
import NearbyDecode
import NearbyInterop
import NearbyMessages
import NearbyRunner

@main
struct NearbyConformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby-conformance",
        abstract: "Reference decoder and conformance suite for Nearby-Messages-style proximity systems.",
        version: ReferenceAdapter.version,
        subcommands: [
            Check.self, Decode.self, Survey.self, Replay.self, Synthesize.self, Audio.self, EID.self, Validate.self,
            Adapter.self,
            Matrix.self, Coverage.self, MergeReports.self, Extcap.self,
        ])
}
