import ArgumentParser
import NearbyDecode
import NearbyDecodeSession
import NearbyJSON

struct Survey: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every beacon identity and every advertiser in captures.",
        discussion: """
            Decodes the captures (files or folders, as decode reads them) and prints one row per \
            beacon identity (its type and identifying fields, the addresses that sent it) and one \
            per advertiser (its address and type, the beacon frames it sent, its local names and \
            companies), each with its count, first and last time heard, RSSI minimum, median and \
            maximum, and estimated advertising interval (the 10th percentile of the gaps between \
            successive hearings). JSON lines (keys sorted) or a table; beacons first, then \
            advertisers, each by first heard. Faults go to standard error as with decode. Exit \
            status 1 when a file cannot be read, 2 when some record could not be decoded \
            (docs/decode-output.md, "Survey").
            """)

    @Argument(help: "Capture files or folders.")
    var paths: [String]

    @Option(help: "Output format: json (one object per row) or table.")
    var format: Format = .json

    enum Format: String, ExpressibleByArgument {
        case json, table
    }

    func run() throws {
        var survey = CaptureSurvey()
        var status: Int32 = 0
        // Files and folders as decode reads them: a file found in a folder that is no capture is
        // passed over, one named is an error.
        for (path, named) in DecodeSession.expand(paths, diagnostics: { printError($0) }) {
            do {
                let accounting = try CaptureDecoder.decode(
                    path: path, onAdvertisement: { survey.add($0) },
                    onIssue: { printError($0.description) })
                if accounting.malformed > 0 && status == 0 { status = ExitStatus.partiallyDecoded }
            } catch {
                printError(named ? "error: \(error)" : "skipped: \(error)")
                if named { status = ExitStatus.failure }
            }
        }
        var out = ""
        if format == .table { out += SurveyEntry.tableHeader + "\n" }
        for entry in survey.entries {
            out += (format == .table ? entry.tableRow : entry.json.serialized) + "\n"
        }
        FileDescriptorOutput.write(out, fd: 1)
        if status != 0 { throw ExitCode(status) }
    }
}
