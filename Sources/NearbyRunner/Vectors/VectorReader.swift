import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyReplay

extension Vector {
    static let idPattern = "lower-case letters, digits, '-', '_', '.' and '/'"

    /// Reads one vector. Paths in it are relative to `directory` (the vector file's folder).
    init(json n: JSONNode, file: String, directory: String) throws(JSONInputError) {
        let o = try n.object(allowed: [
            "id", "description", "kind", "clauses", "flags", "source", "verdict", "alternatives",
            "toleranceSeconds", "skipWhenFilesAbsent", "input", "capture", "scenario", "captures", "audio", "expect",
        ])
        let idNode = try o.required("id")
        id = try idNode.string()
        guard !id.isEmpty,
            id.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0)
            })
        else {
            throw idNode.fail("an id is \(Self.idPattern)")
        }
        description = try o.required("description").string()
        if description.isEmpty {
            throw try o.required("description").fail("say which rule or format clause the vector pins")
        }
        self.file = file
        path = n.path
        toleranceMicros = try o.optional("toleranceSeconds")?.microseconds(in: 0...3_600_000_000) ?? 0
        skipWhenFilesAbsent = try o.optional("skipWhenFilesAbsent")?.bool() ?? false
        let kindNode = try o.required("kind")
        let expect = try o.required("expect")
        let resolve = { (p: String) in p.hasPrefix("/") ? p : directory + "/" + p }
        let kind = Kind(rawValue: try kindNode.choice(Kind.allCases.map(\.rawValue)))!
        switch kind {
        case .frame: (input, expectation) = try Self.frame(o, expect)
        case .capture: (input, expectation) = try Self.capture(o, expect, resolve)
        case .audio: (input, expectation) = try Self.audio(o, expect, resolve)
        case .scenario: (input, expectation, scenarioSource) = try Self.scenario(o, expect, description, resolve)
        }
        (clauses, flags, source) = try Self.metadata(o)
        (verdict, alternatives) = try Self.verdict(o, kind: kind, expectation: expectation)
    }

    static let clauseIdPattern =
        "upper-case words joined by '-', ending in a number or an engine rule id (EDDYSTONE-TLM-3, ENGINE-O2)"

    /// `EDDYSTONE-TLM-3`, `ENGINE-O2`: upper-case letters and digits in at least two words
    /// joined by '-', the first starting with a letter (docs/spec/README.md, "Clauses").
    static func isClauseId(_ s: String) -> Bool {
        let words = s.split(separator: "-", omittingEmptySubsequences: false)
        return words.count >= 2 && words.first?.first.map { ("A"..."Z").contains($0) } == true
            && words.allSatisfy { w in
                !w.isEmpty && w.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            }
    }

    /// `clauses` (at least one id, none twice), `flags` (names, none twice; the registry is
    /// checked by the schema and by `coverage`) and `source`.
    static func metadata(_ o: JSONObject) throws(JSONInputError) -> ([String], [String], Source) {
        let clausesNode = try o.required("clauses")
        var clauses: [String] = []
        for c in try clausesNode.array() {
            let id = try c.string()
            guard isClauseId(id) else { throw c.fail("a clause id is \(clauseIdPattern)") }
            if clauses.contains(id) { throw c.fail("\(id) is named twice") }
            clauses.append(id)
        }
        if clauses.isEmpty { throw clausesNode.fail("name at least one clause of docs/spec/ the vector tests") }
        var flags: [String] = []
        for f in try o.required("flags").array() {
            let name = try f.string()
            guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first),
                name.unicodeScalars.allSatisfy({
                    ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                })
            else { throw f.fail("a flag is a name of Vectors/schema/flags.json, such as TrailingBytes") }
            if flags.contains(name) { throw f.fail("\(name) is named twice") }
            flags.append(name)
        }
        let source = Source(rawValue: try o.required("source").choice(Source.allCases.map(\.rawValue)))!
        return (clauses, flags, source)
    }

    /// The verdict and, for an `acceptable` vector, its other readings. A `valid` or `invalid`
    /// verdict must agree with the expectation: a fault, a refusal or malformed records is
    /// `invalid`, and `invalid` is nothing else. An `acceptable` vector's readings may be of
    /// either class (decoded, or refused for a trailing byte).
    static func verdict(
        _ o: JSONObject, kind: Kind, expectation: Expectation
    ) throws(JSONInputError) -> (Verdict, [Expectation]) {
        let verdictNode = try o.required("verdict")
        let verdict = Verdict(rawValue: try verdictNode.choice(Verdict.allCases.map(\.rawValue)))!
        let rejects: Bool
        switch expectation {
        case .error, .refused: rejects = true
        case .capture(_, let records): rejects = (records["malformed"]?.intValue ?? 0) > 0
        default: rejects = false
        }
        if verdict != .acceptable && rejects != (verdict == .invalid) {
            throw verdictNode.fail(
                rejects
                    ? "the expected result is a fault, a refusal or malformed records: the verdict is invalid"
                    : "an invalid vector expects a fault, a refusal or malformed records")
        }
        guard let node = o.optional("alternatives") else {
            if verdict == .acceptable {
                throw verdictNode.fail("an acceptable vector lists its other readings in \"alternatives\"")
            }
            return (verdict, [])
        }
        guard verdict == .acceptable else { throw node.fail("only an acceptable vector has alternatives") }
        let items = try node.array()
        if items.isEmpty { throw node.fail("list at least one other reading") }
        var alternatives: [Expectation] = []
        for e in items {
            switch kind {
            case .frame: alternatives.append(try frameExpectation(e))
            case .capture: alternatives.append(try captureExpectation(e))
            case .audio: alternatives.append(try audioExpectation(e))
            case .scenario:
                if case .refused = expectation { throw node.fail("a refused scenario has one reading") }
                alternatives.append(try eventsExpectation(e))
            }
        }
        return (verdict, alternatives)
    }

    /// A frame vector: `input` (one of adData, h4, linkLayer, in hex) and the beacons or the fault.
    static func frame(_ o: JSONObject, _ expect: JSONNode) throws(JSONInputError) -> (Input, Expectation) {
        try Self.forbid(o, ["capture", "scenario", "captures", "audio"], kind: "frame")
        let i = try o.required("input").object(allowed: ["adData", "h4", "linkLayer"])
        guard i.fields.count == 1, let key = i.fields.keys.first else {
            throw try o.required("input").fail("give exactly one of adData, h4, linkLayer")
        }
        let bytesNode = try i.required(key)
        let text = try bytesNode.string()
        guard let bytes = Hex.decode(text) else { throw bytesNode.fail("not hex") }
        let input = Vector.Input.frame(key == "adData" ? .adData(bytes) : key == "h4" ? .h4(bytes) : .linkLayer(bytes))
        return (input, try frameExpectation(expect))
    }

    /// A frame's `expect`: the beacons (and advertisement fields), or the fault.
    static func frameExpectation(_ expect: JSONNode) throws(JSONInputError) -> Expectation {
        let e = try expect.object(allowed: ["beacons", "advertisement", "error"])
        if let err = e.optional("error") {
            if e.has("beacons") || e.has("advertisement") {
                throw expect.fail("expect either error or beacons, not both")
            }
            let eo = try err.object(allowed: ["code", "offset"])
            let codeNode = try eo.required("code")
            let code = try codeNode.string()
            guard code.contains("/") else {
                throw codeNode.fail("a code is \"layer/code\", e.g. \"eddystone/truncated\"")
            }
            return .error(key: code, offset: Int(try eo.required("offset").integer(in: 0...1_000_000)))
        } else {
            let beacons = try e.required("beacons").array().map { (b) throws(JSONInputError) in
                _ = try b.object(allowed: Self.beaconFields)
                return b.value
            }
            var adv: [String: JSONValue] = [:]
            if let a = e.optional("advertisement") {
                adv = try a.object(allowed: [
                    "address", "addressType", "rssi", "eventType", "txPower", "channel", "scanResponse", "source",
                    "directAddress", "directAddressType",
                ]).fields
            }
            return .beacons(beacons, advertisement: adv)
        }
    }

    /// A capture vector: the capture file, its beacons with their records, and the accounting.
    static func capture(
        _ o: JSONObject, _ expect: JSONNode, _ resolve: (String) -> String
    ) throws(JSONInputError) -> (Input, Expectation) {
        try Self.forbid(o, ["input", "scenario", "captures", "audio"], kind: "capture")
        let input = Vector.Input.capture(path: resolve(try o.required("capture").string()))
        return (input, try captureExpectation(expect))
    }

    /// A capture's `expect`: its beacons with their records, and the accounting.
    static func captureExpectation(_ expect: JSONNode) throws(JSONInputError) -> Expectation {
        let e = try expect.object(allowed: ["beacons", "records"])
        let beacons = try e.required("beacons").array().map { (b) throws(JSONInputError) in
            let bo = try b.object(allowed: Self.beaconFields + ["record"])
            _ = try bo.required("record").integer(in: 1...Int64(Int32.max))
            return b.value
        }
        let records = try e.required("records").object(
            allowed: ["read", "decoded", "ignored", "malformed"] + Vector.optionalRecordCounts)
        for key in ["read", "decoded", "ignored", "malformed"] {
            _ = try records.required(key).integer(in: 0...Int64(Int32.max))
        }
        for key in Vector.optionalRecordCounts where records.fields[key] != nil {
            _ = try records.required(key).integer(in: 0...Int64.max)
        }
        return .capture(beacons: beacons, records: records.fields)
    }

    /// An audio vector: the sound file and its token frames in time order.
    static func audio(
        _ o: JSONObject, _ expect: JSONNode, _ resolve: (String) -> String
    ) throws(JSONInputError) -> (Input, Expectation) {
        try Self.forbid(o, ["input", "scenario", "captures", "capture"], kind: "audio")
        let input = Vector.Input.audio(path: resolve(try o.required("audio").string()))
        return (input, try audioExpectation(expect))
    }

    /// An audio vector's `expect`: the token frames in time order.
    static func audioExpectation(_ expect: JSONNode) throws(JSONInputError) -> Expectation {
        let e = try expect.object(allowed: ["frames"])
        var last = -Double.infinity
        let frames = try e.required("frames").array().map { (f) throws(JSONInputError) in
            let fo = try f.object(allowed: ["token", "mode", "start", "channel"])
            _ = try ModelJSON.hex(try fo.required("token"), lengths: [6, 8, 12, 16])
            _ = try fo.required("mode").choice(["inaudible", "audible"])
            let startNode = try fo.required("start")
            let start = try startNode.number(in: 0...1e9)
            if start < last { throw startNode.fail("expected frames are out of time order") }
            last = start
            if let c = fo.optional("channel") { _ = try c.integer(in: 0...1023) }
            return f.value
        }
        return .audioFrames(frames)
    }

    /// A scenario vector: the scenario (inline or a file), its captures and sound files, and
    /// the events; or an inline scenario that must be refused.
    static func scenario(
        _ o: JSONObject, _ expect: JSONNode, _ description: String, _ resolve: (String) -> String
    ) throws(JSONInputError) -> (Input, Expectation, ScenarioSource) {
        try Self.forbid(o, ["input", "capture"], kind: "scenario")
        let sNode = try o.required("scenario")
        if try expect.object(allowed: ["events", "refused"]).has("refused") {
            // V1: the scenario itself is the input under test; it is read when the vector runs.
            try Self.forbid(o, ["captures", "audio"], kind: "refused-scenario")
            guard case .object = sNode.value else {
                throw sNode.fail("a scenario expected to be refused is inline, so the vector shows what is refused")
            }
            let r = try expect.object(allowed: ["refused"]).required("refused").object(allowed: ["path", "reason"])
            let pathNode = try r.required("path"), reasonNode = try r.required("reason")
            let path = try pathNode.string(), reason = try reasonNode.string()
            guard path == "$" || path.hasPrefix("$.") || path.hasPrefix("$[") else {
                throw pathNode.fail("a JSON path rooted at the scenario, such as \"$.events[0].time\"")
            }
            if reason.isEmpty { throw reasonNode.fail("give a phrase of the expected reason") }
            return (.scenarioDocument(sNode.value), .refused(path: path, reason: reason), .inline(sNode.value))
        }
        var scenario: Scenario
        let scenarioSource: ScenarioSource
        if case .string(let file) = sNode.value {
            // A scenario file of its own, e.g. a synthesized capture's (docs/synthesis.md).
            scenarioSource = .file(resolve(file))
            do {
                scenario = try Scenario.load(resolve(file))
            } catch {
                throw sNode.fail("the scenario file cannot be used: \(error)")
            }
        } else {
            scenarioSource = .inline(sNode.value)
            var registryPath: String?
            scenario = try Scenario(json: sNode, registryPath: &registryPath)
            if registryPath != nil {
                throw sNode.fail("an inline scenario holds its registry inline, so the vector is self-contained")
            }
        }
        scenario.description = scenario.description ?? description
        let captures =
            try o.optional("captures")?.array().map { (c) throws(JSONInputError) in resolve(try c.string()) } ?? []
        let audio =
            try o.optional("audio")?.array().map { (a) throws(JSONInputError) -> ReplaySession.AudioFile in
                if case .string(let file) = a.value { return ReplaySession.AudioFile(path: resolve(file)) }
                let ao = try a.object(allowed: ["file", "startSeconds"])
                return ReplaySession.AudioFile(
                    path: resolve(try ao.required("file").string()),
                    startMicros: try ao.optional("startSeconds")?.microseconds(
                        in: -ModelJSON.timeRange.upperBound...ModelJSON.timeRange.upperBound) ?? 0)
            } ?? []
        let input = Vector.Input.scenario(scenario, captures: captures, audio: audio)
        return (input, try eventsExpectation(expect), scenarioSource)
    }

    /// A scenario's `expect`: the events, each as `replay` prints it, in time order.
    static func eventsExpectation(_ expect: JSONNode) throws(JSONInputError) -> Expectation {
        let e = try expect.object(allowed: ["events"])
        let events = try e.required("events").array()
        var last: Int64 = .min
        for ev in events {
            let eo = try ev.object(allowed: [
                "event", "time", "subscription", "publication", "message", "granted", "hasError", "custom",
            ])
            _ = try eo.required("event").choice(EngineEvent.Kind.allCases.map(\.rawValue))
            let tNode = try eo.required("time")
            let t = try tNode.microseconds(in: -ModelJSON.timeRange.upperBound...ModelJSON.timeRange.upperBound)
            if t < last { throw tNode.fail("expected events are out of time order") }
            last = t
            if let m = eo.optional("message") { _ = try ModelJSON.message(m) }
        }
        return .events(events.map(\.value))
    }

    static let beaconFields = [
        "type", "txPower", "namespace", "instance", "reserved", "url", "scheme", "encodedUrl",
        "reservedBytes", "version", "batteryMillivolts", "temperatureCelsius", "advertisingCount",
        "uptimeSeconds", "data", "encryptedTlm", "salt", "mic", "nordicPadding", "eid", "hashedFlags",
        "frameType", "uuid", "major", "minor", "measuredPower", "manufacturer", "beaconId", "token", "flags",
    ]

    private static func forbid(_ o: JSONObject, _ keys: [String], kind: String) throws(JSONInputError) {
        for k in keys where o.has(k) { throw o.node.fail("\"\(k)\" does not belong in a \(kind) vector") }
    }
}
