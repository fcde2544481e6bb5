import NearbyJSON
import NearbyMessages

/// What `replay` prints on standard output (docs/scenario-format.md, "Output"): each event as
/// a JSON line or a table row; with `explain`, each explanation on its own line before the
/// event after it and each subscription's summary at the end (JSON lines then carry
/// `kind`); a table first says which Unix time scenario time 0 is. The caller hands the text
/// on (`write`) in chunks of whole lines.
public struct ReplayOutput: Sendable {
    /// JSON lines, or rows for people.
    public enum Format: Sendable {
        case json, table
    }

    public var format: Format
    /// Print the explanations and the summaries (`--explain`).
    public var explain: Bool

    public init(format: Format, explain: Bool = false) {
        self.format = format
        self.explain = explain
    }

    /// The bytes gathered before they are handed on.
    static let chunkSize = 1 << 16

    /// Prints a finished replay: the origin line (tables), the events with the explanations
    /// between them, then the summaries.
    package func write(_ result: ReplaySession.Result, write: (UnsafeBufferPointer<UInt8>) -> Void) {
        var out = JSONWriter()
        func flush(below limit: Int) {
            guard out.count >= limit else { return }
            out.withBytes { write($0) }
            out.removeAll()
        }
        start(origin: result.originUnixMicros, to: &out)
        var explanations = explain ? result.explanations[...] : []
        for (index, event) in result.events.enumerated() {
            while let x = explanations.first, x.afterEvent <= index {
                line(x, events: result.events, to: &out)
                explanations.removeFirst()
            }
            line(event, to: &out)
            flush(below: Self.chunkSize)
        }
        for x in explanations { line(x, events: result.events, to: &out) }
        if explain {
            switch format {
            case .json:
                ExplanationOutput.writeSummary(
                    result.subscriptionSummaries, notSightings: result.notSightings, to: &out)
                out.newline()
            case .table:
                for text in ExplanationOutput.summaryText(
                    result.subscriptionSummaries, notSightings: result.notSightings)
                {
                    out.text(text)
                    out.newline()
                }
            }
        }
        flush(below: 1)
    }

    /// What comes before the first event: a table's origin line.
    func start(origin unixMicros: Int64, to out: inout JSONWriter) {
        guard format == .table else { return }
        out.text(EventText.originLine(unixMicros: unixMicros))
        out.newline()
    }

    /// Prints a replay whose events come in batches as it runs (`ReplaySession.run(…, onEvents:)`;
    /// without explanations): byte for byte what `write` prints for the same replay.
    package final class Stream {
        let output: ReplayOutput
        let write: (UnsafeBufferPointer<UInt8>) -> Void
        var out = JSONWriter()
        var started = false

        package init(_ output: ReplayOutput, write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
            precondition(!output.explain, "explanations cite events by index: print them with write(_:)")
            self.output = output
            self.write = write
        }

        /// Prints a batch of events, after the origin line when it is the first.
        package func events(_ events: [EngineEvent], originUnixMicros: Int64) {
            if !started { begin(originUnixMicros) }
            for event in events {
                output.line(event, to: &out)
                if out.count >= ReplayOutput.chunkSize { flush() }
            }
        }

        /// Ends the output (the origin line alone for a replay without events) and hands on
        /// what is gathered.
        package func finish(originUnixMicros: Int64) {
            if !started { begin(originUnixMicros) }
            flush()
        }

        private func begin(_ originUnixMicros: Int64) {
            started = true
            output.start(origin: originUnixMicros, to: &out)
        }

        /// Hands on the lines gathered so far (`replay --reorder-window` does after each batch,
        /// so that each event is written as it comes).
        package func flush() {
            guard out.count > 0 else { return }
            out.withBytes { write($0) }
            out.removeAll()
        }
    }

    /// One event as its line (`kind: "event"` in JSON when explaining).
    package func line(_ event: EngineEvent, to out: inout JSONWriter) {
        switch format {
        case .json: EventJSON.write(event, to: &out, kind: explain ? "event" : nil)
        case .table: out.text(EventText.row(event))
        }
        out.newline()
    }

    /// One explanation as its line; `events` are the replay's, which it cites by index.
    package func line(_ x: ReplayExplanation, events: [EngineEvent], to out: inout JSONWriter) {
        switch format {
        case .json: ExplanationOutput.write(x, events: events, to: &out)
        case .table: out.text(ExplanationOutput.text(x))
        }
        out.newline()
    }
}
