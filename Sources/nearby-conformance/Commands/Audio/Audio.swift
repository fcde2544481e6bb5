import ArgumentParser

struct Audio: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "NUT v1 audio tokens: write them into sound files, and measure the decoder.",
        discussion: "Decoding a recording is `nearby-conformance decode REC.wav`. Format: docs/spec/nut-audio.md.",
        subcommands: [AudioEncode.self, AudioEvaluate.self])
}
