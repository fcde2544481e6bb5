import ArgumentParser
import NearbyCapture
import NearbyLive

/// `--live SOURCE` and what bounds and keeps a live session: shared by `decode` and `replay`.
struct LiveOptions: ParsableArguments {
    @Option(
        name: .customLong("live"),
        help: ArgumentHelp(
            """
            Read a live controller instead of files: tcp-client:HOST:PORT (a controller served over TCP as H4, as by \
            Bumble's bumble.apps.controllers), hci-monitor (Linux's monitor channel: every controller, read only; \
            needs CAP_NET_RAW) or hci-user:N (Linux's user channel on hciN, released with hciconfig hciN down; needs \
            CAP_NET_ADMIN). A driven controller is reset and scans passively, extended when it can, with no \
            duplicate filtering. Ctrl-C stops cleanly.
            """, valueName: "source"))
    var source: String?

    @Option(
        name: .customLong("write"),
        help: ArgumentHelp(
            """
            With --live: keep every record sent and received in this capture (.pcapng, .pcap, or .btsnoop/.log/.cfa), \
            written through as it comes; decoding it later gives the same output.
            """, valueName: "file"))
    var write: String?

    @Option(help: "With --live: stop this many seconds after scanning started.")
    var duration: Double?

    @Option(
        name: [.customShort("c"), .customLong("count")], help: "With --live: stop after this many records received.")
    var count: Int?

    var isLive: Bool { source != nil }

    func validate() throws {
        guard let source else {
            if write != nil || duration != nil || count != nil {
                throw ValidationError("--write, --duration and -c bound or keep a live session: they go with --live.")
            }
            return
        }
        do {
            _ = try LiveSourceName(source)
        } catch {
            throw ValidationError("--live: \(error.reason)")
        }
        if let duration, !(duration > 0 && duration <= 1e7) {
            throw ValidationError("--duration takes seconds, above 0 and at most 1e7.")
        }
        if let count, count < 1 { throw ValidationError("-c takes a number of records, at least 1.") }
        if let write {
            if LiveCaptureWriter.format(of: write) == nil {
                throw ValidationError("--write: name the capture .pcapng, .pcap or .btsnoop (also .log, .cfa).")
            }
            if let problem = OutputPath.problemWritingFile(write) { throw ValidationError("--write: \(problem)") }
        }
    }

    /// Opens the source (scanning started), with Ctrl-C routed to a clean stop, and says on
    /// standard error what it is doing. Exits with status 1 when the source cannot be opened.
    func open() throws -> LiveCapture {
        StopRequest.install()
        guard let source else { preconditionFailure("open() needs --live") }
        do {
            let name = try LiveSourceName(source)
            let linkType: LinkType = name.drivesController ? .bluetoothHCIH4WithPHDR : .bluetoothLinuxMonitor
            let writer = try write.map { path throws(LiveError) in
                try LiveCaptureWriter(path: path, linkType: linkType, source: source)
            }
            let limits = LiveCapture.Limits(
                durationMicros: duration.map { Int64(($0 * 1e6).rounded()) }, maximumRecords: count)
            let capture = try LiveCapture(source: name, limits: limits, writer: writer)
            if capture.end == nil {
                var said = "live: \(source): " + (capture.setupDescription ?? "watching every controller, read only")
                if let write { said += "; writing \(write)" }
                printError(said + "; Ctrl-C stops")
            }
            return capture
        } catch {
            printError("error: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
    }

    /// Says how `capture` ended; true when it ended as asked (a stop, the duration, the count)
    /// rather than by a failure, which it reports.
    func report(_ capture: LiveCapture) -> Bool {
        let source = self.source ?? ""
        let kept = write.map { "; written to \($0)" } ?? ""
        let records = "\(capture.recordCount) records (\(capture.recordsReceived) received while scanning)"
        switch capture.end {
        case .failure, nil:
            let why = capture.failure.map(\.reason) ?? "the source ended"
            printError("error: \(source): \(why); the \(records) before were decoded\(kept)")
            return false
        case .signal(let s):
            printError("live: \(source): stopped by signal \(s) after \(records)\(kept)")
        case .duration:
            printError("live: \(source): stopped after \(duration ?? 0) s, \(records)\(kept)")
        case .count:
            printError("live: \(source): stopped after \(records)\(kept)")
        }
        if let failure = capture.failure {
            printError("error: \(failure)")
            return false
        }
        return true
    }
}
