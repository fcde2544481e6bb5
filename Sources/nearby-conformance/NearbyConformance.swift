import ArgumentParser
import NearbyDecode

@main
struct NearbyConformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby-conformance",
        abstract: "Reference decoder and conformance suite for Nearby-Messages-style proximity systems.",
        subcommands: [Check.self, Decode.self, Replay.self, Synthesize.self])
}

extension DecodeSession.OutputFormat: ExpressibleByArgument {}

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode BLE captures (pcap, pcapng, btsnoop, hex text) into advertisements and beacon frames.",
        discussion: """
        Prints one JSON object per line (keys sorted) for each advertisement that has AD data. \
        Faults are reported on standard error with file, record, byte offset and reason; \
        decoding goes on after them. A directory stands for the capture files below it. \
        Exit status: 0, or 1 when a named file cannot be read at all. \
        Output fields: docs/decode-output.md.
        """)

    @Argument(help: "Capture files or directories.")
    var paths: [String] = []

    @Flag(help: "Print only advertisements that contain a beacon frame.")
    var beaconsOnly = false

    @Flag(help: "End with one JSON line of accounting: records read, decoded, ignored and malformed (by reason), advertisements, beacons by type.")
    var summary = false

    @Option(help: "Output format: json (one object per line) or table.")
    var format: DecodeSession.OutputFormat = .json

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one capture file or directory.") }
    }

    func run() throws {
        let session = DecodeSession(beaconsOnly: beaconsOnly, summary: summary, format: format)
        let status = session.run(
            paths: paths,
            output: { print($0) },
            diagnostics: { line in
                var stderr = StandardError()
                print(line, to: &stderr)
            })
        if status != 0 { throw ExitCode(status) }
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileDescriptorOutput.write(string, fd: 2)
    }
}
