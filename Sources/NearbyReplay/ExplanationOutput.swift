import NearbyBytes
import NearbyJSON
import NearbyMessages

/// The JSON and text forms of `replay --explain` lines (docs/scenario-format.md, "Explaining a
/// replay"). JSON keys are sorted; times are seconds with six decimals in the scenario's time
/// base.
public enum ExplanationOutput {
    /// Writes the line's object: `kind` `sighting` or `evidence`.
    package static func write(_ x: ReplayExplanation, events: [EngineEvent], to w: inout JSONWriter) {
        switch x.body {
        case .sighting(let record, let verdicts):
            writeSighting(record, to: &w) { w in
                w.member("kind", plain: "sighting")
            } tail: { w in
                w.key("subscriptions")
                w.beginArray()
                for v in verdicts { writeVerdict(v, to: &w) }
                w.endArray()
            }
        case .evidence(let index, let why):
            let e = events[index]
            w.beginObject()
            w.member("event", string: e.kind.rawValue)
            if let input = why.input {
                w.key("input")
                w.beginObject()
                w.member("index", input.index)
                w.member("text", string: input.text)
                w.endObject()
            }
            w.member("kind", plain: "evidence")
            if let m = e.message {
                w.key("message")
                EventJSON.writeMessage(m, to: &w)
            }
            if let p = e.publication { w.member("publication", string: p) }
            w.member("reason", string: why.reason)
            w.member("rule", string: why.rule)
            if let s = why.sighting {
                w.key("sighting")
                writeSighting(s, to: &w, middle: { _ in }, tail: { _ in })
            }
            if let stopped = why.sourcesStopped {
                w.key("sourcesStopped")
                w.beginArray()
                for source in EvidenceSource.allCases where stopped.contains(source) { w.string(source.name) }
                w.endArray()
            }
            if let s = e.subscription { w.member("subscription", string: s) }
            w.key("time")
            w.seconds(micros: e.timeMicros)
            if let timer = why.timer { w.member("timer", string: timer) }
            w.endObject()
        }
    }

    /// A sighting's members in key order, `middle` between `input` and `medium` (where `kind`
    /// sorts) and `tail` between `source` and `time` (where `subscriptions` sorts).
    static func writeSighting(
        _ r: ReplayExplanation.SightingRecord, to w: inout JSONWriter,
        middle: (inout JSONWriter) -> Void, tail: (inout JSONWriter) -> Void
    ) {
        w.beginObject()
        if let address = r.address { w.member("address", string: address.description) }
        switch r.origin {
        case .audio(let path, let frame):
            w.member("audio", string: path)
            w.member("frame", frame)
        case .capture(let path, _):
            w.member("capture", string: path)
        case .scenario:
            break
        }
        w.member("identity", string: Hex.encode(r.sighting.identity.bytes))
        w.member("identityType", string: identityType(r.sighting.identity.kind))
        if case .scenario(let index) = r.origin { w.member("input", index) }
        middle(&w)
        w.member("medium", string: r.sighting.medium.name)
        if case .capture(_, let record) = r.origin { w.member("record", record) }
        w.key("rssi")
        if let rssi = r.sighting.rssiDBm { w.integer(rssi) } else { w.null() }
        w.member("source", string: r.sighting.source.name)
        tail(&w)
        w.key("time")
        w.seconds(micros: r.sighting.timeMicros)
        w.endObject()
    }

    static func writeVerdict(_ v: SubscriptionEngine.SightingVerdict, to w: inout JSONWriter) {
        w.beginObject()
        if let stop = v.stop {
            w.member("code", string: stop.code)
            w.member("counted", false)
            w.member("reason", string: stop.reason)
            w.member("rule", string: stop.rule)
            if !v.standsFor.isEmpty {
                w.key("standsFor")
                w.beginArray()
                for m in v.standsFor { EventJSON.writeMessage(m, to: &w) }
                w.endArray()
            }
        } else {
            w.member("counted", true)
            w.key("messages")
            w.beginArray()
            for m in v.messages {
                w.beginObject()
                w.member("found", m.newlyFound)
                w.key("message")
                EventJSON.writeMessage(m.message, to: &w)
                w.endObject()
            }
            w.endArray()
        }
        w.member("subscription", string: v.subscription)
        w.endObject()
    }

    static func identityType(_ kind: SightingIdentity.Kind) -> String {
        switch kind {
        case .token: "token"
        case .eddystoneUID: "eddystone-uid"
        case .iBeacon: "ibeacon"
        case .altBeacon: "altbeacon"
        case .eddystoneEID: "eddystone-eid"
        }
    }

    /// The text form: indented lines under the event table's rows.
    public static func text(_ x: ReplayExplanation) -> String {
        let indent = String(repeating: " ", count: 15)
        switch x.body {
        case .sighting(let record, let verdicts):
            var lines = [
                pad(JSONValue.seconds(micros: record.sighting.timeMicros).serialized, 14) + " sighting "
                    + describe(record)
            ]
            for v in verdicts {
                if let stop = v.stop {
                    var line = indent + "  \(v.subscription): not counted, \(stop.rule) \(stop.code): \(stop.reason)"
                    if !v.standsFor.isEmpty {
                        line +=
                            " (it stands for "
                            + v.standsFor.map { "\($0.namespace)/\($0.type)" }.joined(separator: ", ")
                            + ")"
                    }
                    lines.append(line)
                } else {
                    let counted = v.messages.map {
                        "\($0.message.namespace)/\($0.message.type) \(Base64.encode($0.message.content))"
                            + ($0.newlyFound ? " (found)" : " (seen again)")
                    }
                    lines.append(indent + "  \(v.subscription): counted as " + counted.joined(separator: ", "))
                }
            }
            return lines.joined(separator: "\n")
        case .evidence(_, let why):
            var text = indent + "  because \(why.rule): \(why.reason)"
            if let s = why.sighting {
                text += "; " + describe(s) + " at " + JSONValue.seconds(micros: s.sighting.timeMicros).serialized
            }
            if let input = why.input { text += "; scenario event \(input.index): \(input.text)" }
            if let stopped = why.sourcesStopped {
                text +=
                    "; stopped: "
                    + EvidenceSource.allCases.filter { stopped.contains($0) }.map(\.name).joined(separator: ", ")
            }
            return text
        }
    }

    static func describe(_ r: ReplayExplanation.SightingRecord) -> String {
        let s = r.sighting
        // A token's source says its medium; a beacon's type says its source.
        let kind = s.identity.kind == .token ? s.source.name : identityType(s.identity.kind)
        var text = "\(kind) \(Hex.encode(s.identity.bytes))"
        if let rssi = s.rssiDBm { text += " rssi \(rssi)" }
        if let address = r.address { text += " from \(address)" }
        switch r.origin {
        case .capture(let path, let record): text += " (\(path) record \(record))"
        case .audio(let path, let frame): text += " (\(path) frame \(frame))"
        case .scenario(let index): text += " (scenario event \(index))"
        }
        return text
    }

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }
}
