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
        if format == .table {
            out.text(EventText.originLine(unixMicros: result.originUnixMicros))
            out.newline()
        }
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
