import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyReplay

extension Vector {
    static let idPattern = "lower-case letters, digits, '-', '_', '.' and '/'"

    /// Reads one vector. Paths in it are relative to `directory` (the vector file's folder).
    init(json n: JSONNode, file: String, directory: String) throws(JSONInputError) {
        let o = try n.object(allowed: [
            "id", "description", "kind", "toleranceSeconds", "skipWhenFilesAbsent",
            "input", "capture", "scenario", "captures", "audio", "expect",
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
        switch Kind(rawValue: try kindNode.choice(Kind.allCases.map(\.rawValue)))! {
        case .frame: (input, expectation) = try Self.frame(o, expect)
        case .capture: (input, expectation) = try Self.capture(o, expect, resolve)
        case .audio: (input, expectation) = try Self.audio(o, expect, resolve)
        case .scenario: (input, expectation, scenarioSource) = try Self.scenario(o, expect, description, resolve)
        }
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
            return (input, .error(key: code, offset: Int(try eo.required("offset").integer(in: 0...1_000_000))))
        } else {
            let beacons = try e.required("beacons").array().map { (b) throws(JSONInputError) in
                _ = try b.object(allowed: Self.beaconFields)
                return b.value
            }
            var adv: [String: JSONValue] = [:]
            if let a = e.optional("advertisement") {
                adv = try a.object(allowed: [
                    "address", "addressType", "rssi", "eventType", "txPower", "channel", "scanResponse", "source",
                ]).fields
            }
            return (input, .beacons(beacons, advertisement: adv))
        }
    }

    /// A capture vector: the capture file, its beacons with their records, and the accounting.
    static func capture(
        _ o: JSONObject, _ expect: JSONNode, _ resolve: (String) -> String
    ) throws(JSONInputError) -> (Input, Expectation) {
        try Self.forbid(o, ["input", "scenario", "captures", "audio"], kind: "capture")
        let input = Vector.Input.capture(path: resolve(try o.required("capture").string()))
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
        return (input, .capture(beacons: beacons, records: records.fields))
    }

    /// An audio vector: the sound file and its token frames in time order.
    static func audio(
        _ o: JSONObject, _ expect: JSONNode, _ resolve: (String) -> String
    ) throws(JSONInputError) -> (Input, Expectation) {
        try Self.forbid(o, ["input", "scenario", "captures", "capture"], kind: "audio")
        let input = Vector.Input.audio(path: resolve(try o.required("audio").string()))
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
        return (input, .audioFrames(frames))
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
        return (input, .events(events.map(\.value)), scenarioSource)
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
