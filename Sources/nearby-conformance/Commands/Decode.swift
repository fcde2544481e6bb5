import ArgumentParser
import NearbyBytes
import NearbyDecode
import NearbyDecodeSession
import NearbyMessages
import NearbyRunner
import NearbySystem
import NearbyTimeline

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode BLE captures (pcap, pcapng, btsnoop, hex text) and sound files (NUT v1 audio tokens).",
        discussion: """
            Prints one JSON object per line (keys sorted) for each advertisement that has AD data, \
            and for each CRC-valid NUT v1 frame in a sound file (.wav, .flac, .ogg, …: any file \
            libsndfile reads, 44.1 kHz or more; every channel decoded, results merged). \
            Faults are reported on standard error with file, record, byte offset and reason; \
            decoding goes on after them. With --jobs N, N files are decoded at once and the \
            output is the same, byte for byte and in the same order, as with one. A directory stands for the capture files below it \
            (symbolic links followed, each directory read once: a link back to one already read \
            is reported and skipped). \
            Damaged captures lose only the damage: reading goes on at the next plausible record, \
            and the bytes skipped are named (docs/damaged-captures.md). \
            With --live SOURCE, a running controller is read instead of files and each line is \
            printed as its advertisement arrives (docs/live.md). \
            Exit status: 0; 1 when a named file cannot be read at all (or a live source cannot be \
            opened, or fails before the session was stopped); 2 when every file was read \
            but some records could not be decoded (damage, a link type or datalink that is not \
            supported) or a sound file was cut short, each such file named on standard error. \
            Output fields: docs/decode-output.md.
            """)

    @Argument(
        help: """
            Capture files or directories; - (or /dev/stdin, or any pipe) for a capture on standard input, read to \
            its end first.
            """
    )
    var paths: [String] = []

    @Flag(help: "Print only advertisements that contain a beacon frame.")
    var beaconsOnly = false

    @Option(
        name: [.customShort("Y"), .customLong("filter")],
        help: ArgumentHelp(
            """
            Print only the advertisements whose line passes this display filter, as TShark's -Y: \
            fields as decode prints them, beacon.NAME and ad.NAME for any beacon or AD structure, \
            ==, !=, <, <=, >, >=, contains, matches, &&, ||, ! and parentheses \
            (docs/decode-output.md, "Display filters").
            """, valueName: "filter"))
    var filter: String?

    @Flag(
        help: """
            End with one JSON line of accounting: records read, decoded, ignored and malformed (by reason), \
            advertisements, beacons by type, bytes of damage skipped and resynchronisations.
            """
    )
    var summary = false

    @OptionGroup var output: FormatOption

    @Flag(help: "Sound files: also print each token's sighting intervals (first seen, last seen).")
    var intervals = false

    @Option(help: "Sound files: a token is lost after this many seconds without a frame (intervals).")
    var lostTimeout: Double = 10

    @Option(
        help: """
            A registry file (docs/scenario-format.md): resolve EID frames to its EDDYSTONE_EID beacons and decrypt \
            eTLM frames with their keys (JSON output; registration times in Unix seconds).
            """
    )
    var registry: String?

    @Option(
        help: """
            Also write a timeline of the captures to this HTML file (self-contained; docs/timeline.md): \
            one lane per beacon identity with its RSSI over time, every advertisement, decoding faults. \
            Sound files are not drawn.
            """)
    var html: String?

    @OptionGroup var threads: JobsOption

    @OptionGroup var live: LiveOptions

    func validate() throws {
        if live.isLive {
            if !paths.isEmpty { throw ValidationError("--live reads a controller: name no files beside it.") }
            if threads.jobs > 1 { throw ValidationError("--live reads one source: leave out --jobs.") }
            if intervals { throw ValidationError("--intervals is for sound files; --live reads a controller.") }
        } else if paths.isEmpty {
            throw ValidationError("Name at least one capture file, sound file or directory, or a source with --live.")
        }
        if !(lostTimeout > 0) { throw ValidationError("--lost-timeout must be positive.") }
        if registry != nil && output.format == .table {
            throw ValidationError("--registry adds fields to JSON output; use --format json.")
        }
        if let html, let problem = OutputPath.problemWritingFile(html) { throw ValidationError("--html: \(problem)") }
        if html != nil && threads.jobs > 1 {
            throw ValidationError("--html draws the files as they are decoded, one at a time; leave out --jobs.")
        }
        if registry != nil && threads.jobs > 1 {
            throw ValidationError(
                "--registry pairs eTLM frames with the EID frames before them, across files: it decodes one file "
                    + "at a time; leave out --jobs.")
        }
    }

    func run() throws {
        var session = DecodeSession(
            beaconsOnly: beaconsOnly, summary: summary, format: output.format,
            intervals: intervals, lostTimeout: lostTimeout)
        if let filter {
            do {
                session.filter = try DisplayFilter(filter)
            } catch {
                printError("error: -Y \(filter): \(error)")
                throw ExitCode(ExitStatus.failure)
            }
        }
        session.jobs = threads.jobs
        if let registry {
            let r: Registry
            do {
                r = try Scenario.loadRegistry(registry)
            } catch {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.failure)
            }
            session.secureFrames = SecureFrameAnnotator(
                beacons: r.beacons.compactMap { b in
                    b.ephemeralID.map { (b.beaconName, $0.resolverRegistration(originUnixMicros: 0)) }
                })
        }
        let timeline = TimelineBox()
        if html != nil {
            session.onAdvertisement = { timeline.value.add($0, file: $1) }
            session.onIssue = { timeline.value.add($0) }
        }
        let diagnostics = { (line: String) in
            var stderr = StandardError()
            print(line, to: &stderr)
        }
        var outcome: DecodeSession.Outcome
        var liveEnded = true
        if live.isLive {
            let capture = try live.open()
            outcome = session.run(
                live: capture, name: live.source ?? "", write: { FileDescriptorOutput.write($0, fd: 1) },
                diagnostics: diagnostics)
            liveEnded = live.report(capture)
        } else {
            outcome = session.run(
                paths: paths, write: { FileDescriptorOutput.write($0, fd: 1) }, diagnostics: diagnostics)
        }
        if let html {
            let named = live.source.map { [$0] } ?? paths
            let title = "Decoded " + (named.count == 1 ? named[0] : "\(named.count) paths")
            let report = timeline.value.timeline(title: title, notes: named.map { "path \($0)" })
            do {
                try OutputFile.write(Array(TimelineHTML.render(report).utf8), to: html)
            } catch {
                printError("error: \(error)")
                throw ExitCode(ExitStatus.failure)
            }
        }
        if !liveEnded { outcome = .fileUnreadable }
        if outcome != .complete { throw ExitCode(ExitStatus.of(outcome)) }
    }
}

/// The timeline `decode --html` fills as the session decodes (one file at a time).
final class TimelineBox {
    var value = DecodeTimeline()
}
