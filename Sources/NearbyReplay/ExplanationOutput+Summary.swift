import NearbyJSON
import NearbyMessages

extension ExplanationOutput {
    /// The closing lines of `replay --explain --format table`: the frames that were no
    /// sighting and why, then per subscription what it asks for, how many sightings it saw and
    /// counted, why it counted none of the others (by rule), and what the sightings its filter
    /// stopped stood for (ENGINE-R3), the most frequent first.
    public static func summaryText(
        _ summaries: [ReplayExplanation.SubscriptionSummary], notSightings: [String: (count: Int, reason: String)]
    ) -> [String] {
        var lines: [String] = []
        if !notSightings.isEmpty {
            lines.append(
                "summary: frames that are no sighting: "
                    + notSightings.keys.sorted().map {
                        "\($0) \(notSightings[$0]!.count) (\(notSightings[$0]!.reason))"
                    }
                    .joined(separator: "; "))
        }
        for s in summaries {
            var line =
                "summary: \(s.subscription) asks \(s.namespace.isEmpty ? "the project's namespace" : s.namespace), "
                + "\(s.type.isEmpty ? "every type" : "type " + s.type): \(s.sightings) sightings, \(s.counted) counted"
            if !s.notCounted.isEmpty {
                line +=
                    "; not counted: " + byCount(s.notCounted).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            }
            if !s.filteredOut.isEmpty {
                line +=
                    "; the sightings its filter stopped stood for "
                    + byCount(s.filteredOut).prefix(3).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + (s.filteredOut.count > 3 ? ", and \(s.filteredOut.count - 3) more" : "")
            }
            lines.append(line)
        }
        return lines
    }

    /// The closing line of `replay --explain` in JSON: `{"kind":"summary","notSightings":{TYPE:
    /// {"count","reason"}},"subscriptions":[{"counted","filteredOut","namespace","notCounted",
    /// "sightings","subscription","type"}]}`.
    package static func writeSummary(
        _ summaries: [ReplayExplanation.SubscriptionSummary], notSightings: [String: (count: Int, reason: String)],
        to w: inout JSONWriter
    ) {
        var frames: [String: JSONValue] = [:]
        for (type, n) in notSightings { frames[type] = .object(["count": .int(n.count), "reason": .string(n.reason)]) }
        let subscriptions: [JSONValue] = summaries.map { s in
            .object([
                "subscription": .string(s.subscription), "namespace": .string(s.namespace), "type": .string(s.type),
                "sightings": .int(s.sightings), "counted": .int(s.counted),
                "notCounted": .object(s.notCounted.mapValues { .int($0) }),
                "filteredOut": .object(s.filteredOut.mapValues { .int($0) }),
            ])
        }
        w.value(
            .object([
                "kind": .string("summary"), "notSightings": .object(frames), "subscriptions": .array(subscriptions),
            ]))
    }

    /// The entries, the largest count first, then by key.
    static func byCount(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    }
}
