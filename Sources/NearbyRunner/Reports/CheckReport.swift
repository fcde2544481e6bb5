import NearbyBytes
import NearbyDecode
import NearbyJSON
import NearbySystem
import NearbyText

/// The three forms of a `check` report: text for people, JSON (sorted keys) and JUnit XML for
/// CI systems. All three are functions of the results alone, so they are reproducible.
public enum CheckReport {
    public struct Counts: Sendable, Equatable {
        public var pass = 0, fail = 0, error = 0, skipped = 0
        public var total: Int { pass + fail + error + skipped }
        public init(_ results: [VectorResult]) {
            for r in results {
                switch r.status {
                case .pass: pass += 1
                case .fail: fail += 1
                case .error: error += 1
                case .skipped: skipped += 1
                }
            }
        }
        public var allPassed: Bool { fail == 0 && error == 0 }
    }

    /// Failures and errors in full, skips in one line each, then a summary line. Text that
    /// may come from an implementation is printed through `TerminalText.escaped`.
    public static func text(_ results: [VectorResult]) -> String {
        let safe = TerminalText.escaped
        var lines: [String] = []
        for r in results where r.status == .fail || r.status == .error {
            lines.append("\(r.status == .fail ? "FAIL" : "ERROR") \(safe(r.id)) (\(safe(r.kind)), \(safe(r.file)))")
            lines.append("  \(safe(r.message))")
            lines += r.details.map { "  " + safe($0) }
        }
        for r in results where r.status == .skipped { lines.append("SKIP \(safe(r.id)): \(safe(r.message))") }
        let c = Counts(results)
        lines.append("\(c.total) vectors: \(c.pass) passed, \(c.fail) failed, \(c.error) errors, \(c.skipped) skipped")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The implementation a `validate` report is about: the command that ran it, and its
    /// handshake's name and version (nil when it never shook hands).
    public struct Subject: Sendable, Equatable {
        public var name: String?
        public var version: String?
        public var command: String
        public init(name: String?, version: String?, command: String) {
            self.name = name
            self.version = version
            self.command = command
        }
    }

    /// `{"summary": {...}, "vectors": [...]}`, and for `validate` `"implementation":
    /// {"command", "name", "version"}` (name and version null when there was no handshake).
    public static func json(_ results: [VectorResult], implementation: Subject? = nil) -> String {
        let c = Counts(results)
        var top: [String: JSONValue] = [
            "summary": .object([
                "total": .int(c.total), "passed": .int(c.pass), "failed": .int(c.fail),
                "errors": .int(c.error), "skipped": .int(c.skipped),
            ]),
            "vectors": .array(
                results.map { r in
                    .object([
                        "id": .string(r.id), "kind": .string(r.kind), "file": .string(r.file),
                        "status": .string(r.status.rawValue),
                        "message": .string(r.message), "details": .array(r.details.map { .string($0) }),
                    ])
                }),
        ]
        if let implementation {
            top["implementation"] = .object([
                "command": .string(implementation.command),
                "name": implementation.name.map { .string($0) } ?? .null,
                "version": implementation.version.map { .string($0) } ?? .null,
            ])
        }
        return JSONValue.object(top).serialized + "\n"
    }

    /// JUnit XML as Jenkins/Ant's schema (junit-10.xsd) describes it: one `testsuite` per
    /// vector kind inside `testsuites`, one `testcase` per vector with `failure`, `error` or
    /// `skipped`. Each test case has `file` (the vector file, which GitLab links to) and,
    /// when measured, `time` (seconds); suites have the sum of their times and `timestamp`
    /// (the run's start, `YYYY-MM-DDThh:mm:ss` in UTC, as the schema has it) when given; a
    /// `validate` report's suites carry the implementation as `properties`
    /// (`implementation.name`, `.version`, `.command`).
    public static func junit(
        _ results: [VectorResult], timestamp: String? = nil, implementation: Subject? = nil
    ) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let c = Counts(results)
        func time(_ group: [VectorResult]) -> String {
            guard group.contains(where: { $0.seconds != nil }) else { return "" }
            return " time=\"\(seconds(group.reduce(0) { $0 + ($1.seconds ?? 0) }))\""
        }
        let stamp = timestamp.map { " timestamp=\"\(escape($0))\"" } ?? ""
        var properties = ""
        if let implementation {
            let pairs = [
                ("implementation.name", implementation.name), ("implementation.version", implementation.version),
                ("implementation.command", implementation.command),
            ]
            properties =
                "    <properties>\n"
                + pairs.compactMap { name, value in
                    value.map { "      <property name=\"\(name)\" value=\"\(escape($0))\"/>\n" }
                }.joined() + "    </properties>\n"
        }
        out +=
            "<testsuites name=\"nearby-conformance\" tests=\"\(c.total)\" failures=\"\(c.fail)\" "
            + "errors=\"\(c.error)\" skipped=\"\(c.skipped)\"\(time(results))\(stamp)>\n"
        let kinds = Array(Set(results.map(\.kind))).sorted()
        for (index, kind) in kinds.enumerated() {
            let group = results.filter { $0.kind == kind }
            let k = Counts(group)
            out +=
                "  <testsuite name=\"\(escape(kind))\" id=\"\(index)\" package=\"nearby-conformance\" "
                + "tests=\"\(k.total)\" failures=\"\(k.fail)\" errors=\"\(k.error)\" "
                + "skipped=\"\(k.skipped)\"\(time(group))\(stamp)>\n"
            out += properties
            for r in group {
                let head =
                    "    <testcase name=\"\(escape(r.id))\" classname=\"vectors.\(escape(kind))\" "
                    + "file=\"\(escape(r.file))\""
                    + (r.seconds.map { " time=\"\(seconds($0))\"" } ?? "")
                switch r.status {
                case .pass:
                    out += head + "/>\n"
                case .fail, .error:
                    let tag = r.status == .fail ? "failure" : "error"
                    out += head + ">\n      <\(tag) message=\"\(escape(r.message))\" type=\"\(tag)\">"
                    out += escape(([r.file, r.message] + r.details).joined(separator: "\n"))
                    out += "</\(tag)>\n    </testcase>\n"
                case .skipped:
                    out += head + ">\n      <skipped message=\"\(escape(r.message))\"/>\n    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Now, as JUnit's `timestamp` has it (xs:dateTime without a zone):
    /// `YYYY-MM-DDThh:mm:ss`, UTC. The one wall-clock reading in a report: when the run began.
    public static func timestampNow() -> String {
        let micros = SystemClock.unixMicros()
        return String(CivilTime.iso8601(micros: micros - micros % 1_000_000).prefix(19))
    }

    /// Seconds with millisecond precision (`0.012`).
    static func seconds(_ value: Double) -> String {
        let ms = Int((max(0, value) * 1000).rounded())
        let frac = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// XML text and attribute escaping (`MarkupText.escape`).
    static func escape(_ s: String) -> String { MarkupText.escape(s) }
}
