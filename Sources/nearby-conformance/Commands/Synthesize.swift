import ArgumentParser
import NearbySynthesis
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Synthesize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the captures a scenario's world describes, with their ground truth.",
        discussion: """
            Reads SCENARIO (a scenario file with a "world": devices, their frames and signal paths, \
            the scanner's duty cycle and reporting) and writes into the output folder NAME.btsnoop \
            (H4), NAME-201.pcap, NAME-187.pcap (the observer's HCI traffic), NAME-256.pcap (a \
            channel-37 sniffer's view) and NAME.truth.json (every sighting of every frame, and the \
            runs they form), NAME being the scenario file's name without .scenario.json. The same \
            scenario always gives the same bytes. Format: docs/synthesis.md.
            """)

    @Argument(help: "The scenario file (JSON) with a world.")
    var scenario: String

    @Option(name: .shortAndLong, help: "Output folder (created if missing).")
    var output: String

    @Option(help: "Base name of the output files (default: from the scenario file's name).")
    var name: String?

    func validate() throws {
        if let problem = OutputPath.problemWritingFolder(output) { throw ValidationError("--output: \(problem)") }
    }

    func run() throws {
        var stderr = StandardError()
        do {
            let run = try SynthesisRun(scenarioPath: scenario)
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            let base = name ?? Self.baseName(scenario)
            let files = SynthesisRun.Files(directory: output, name: base, audio: run.world.audio?.container)
            let counts = try run.write(to: files)
            print(
                "\(files.btsnoop), \(files.pcap201), \(files.pcap187): \(counts.hciRecords) records, "
                    + "\(counts.reports) advertising reports in \(counts.advertisingEvents) events",
                to: &stderr)
            print("\(files.pcap256): \(counts.airRecords) records; \(files.truth)", to: &stderr)
            if let audio = files.audio { print("\(audio): the microphone's recording", to: &stderr) }
        } catch {
            print("error: \(error)", to: &stderr)
            throw ExitCode(1)
        }
    }

    static func baseName(_ path: String) -> String {
        var n = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".scenario.json", ".json"] where n.hasSuffix(suffix) {
            n.removeLast(suffix.count)
            break
        }
        return n
    }
}
