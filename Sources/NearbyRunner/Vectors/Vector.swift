import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyReplay

/// One conformance vector (Vectors/README.md): an input, the expected result, the rule or
/// format clause it pins, and a time tolerance.
public struct Vector: Sendable {
    /// What a frame vector feeds the decoder.
    public enum FrameInput: Sendable {
        /// AD data of one advertisement.
        case adData([UInt8])
        /// One H4 packet (type byte first), as a controller sends it to the host.
        case h4([UInt8])
        /// One LE link-layer packet as LINKTYPE 251 stores it (access address, PDU, CRC).
        case linkLayer([UInt8])
    }

    public enum Expectation: Sendable {
        /// Frame: the beacon objects in decode order (each exactly as `decode` prints it), and
        /// optionally advertisement fields of the first advertisement (only those listed).
        case beacons([JSONValue], advertisement: [String: JSONValue])
        /// Frame: the first fault's `layer/code` and offset.
        case error(key: String, offset: Int)
        /// Capture: every beacon with its record number, and the record accounting.
        case capture(beacons: [JSONValue], records: [String: JSONValue])
        /// Scenario: the event sequence, each as `replay` prints it.
        case events([JSONValue])
        /// Audio: the token frames in order, each with `token`, `mode`, `start` and
        /// optionally `channel`.
        case audioFrames([JSONValue])
        /// Scenario: the scenario must be refused (semantics.md V1) at this JSON path, rooted at
        /// the scenario (`$.events[0].subscribe.type`), with a reason containing this phrase.
        case refused(path: String, reason: String)
    }

    public enum Input: Sendable {
        case frame(FrameInput)
        case capture(path: String)
        case audio(path: String)
        case scenario(Scenario, captures: [String], audio: [ReplaySession.AudioFile])
        /// An inline scenario kept as written, to be read when the vector runs: for a vector
        /// that expects the scenario to be refused.
        case scenarioDocument(JSONValue)
    }

    public var id: String
    public var description: String
    /// The vector file and the JSON path of this vector in it.
    public var file: String
    public var path: String
    public var toleranceMicros: Int64
    /// Skip (rather than fail) when a referenced file is absent: for field captures kept
    /// outside the repository.
    public var skipWhenFilesAbsent: Bool
    public var input: Input
    public var expectation: Expectation
    /// Where a scenario vector's scenario came from, for implementations under test, which
    /// receive it as JSON (docs/interop.md).
    public var scenarioSource: ScenarioSource?

    public enum ScenarioSource: Sendable {
        case inline(JSONValue)
        /// A scenario file (its registry may be a file beside it).
        case file(String)
    }

    public var kind: String {
        switch input {
        case .frame: "frame"
        case .capture: "capture"
        case .audio: "audio"
        case .scenario, .scenarioDocument: "scenario"
        }
    }

    /// Files the vector reads (resolved paths).
    public var referencedFiles: [String] {
        switch input {
        case .frame, .scenarioDocument: []
        case .capture(let p), .audio(let p): [p]
        case .scenario(_, let captures, let audio): captures + audio.map(\.path)
        }
    }
}

extension Vector {
    static let idPattern = "lower-case letters, digits, '-', '_', '.' and '/'"

    /// Reads one vector. Paths in it are relative to `directory` (the vector file's folder).
    init(json n: JSONNode, file: String, directory: String) throws(JSONInputError) {
        let o = try n.object(allowed: ["id", "description", "kind", "toleranceSeconds", "skipWhenFilesAbsent",
                                       "input", "capture", "scenario", "captures", "audio", "expect"])
        let idNode = try o.required("id")
        id = try idNode.string()
        guard !id.isEmpty, id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0) }) else {
            throw idNode.fail("an id is \(Self.idPattern)")
        }
        description = try o.required("description").string()
        if description.isEmpty { throw try o.required("description").fail("say which rule or format clause the vector pins") }
        self.file = file
        path = n.path
        toleranceMicros = try o.optional("toleranceSeconds")?.microseconds(in: 0...3_600_000_000) ?? 0
        skipWhenFilesAbsent = try o.optional("skipWhenFilesAbsent")?.bool() ?? false
        func resolve(_ p: String) -> String { p.hasPrefix("/") ? p : directory + "/" + p }
        let kindNode = try o.required("kind")
        let expect = try o.required("expect")
        switch try kindNode.choice(["frame", "capture", "audio", "scenario"]) {
        case "frame":
            try Self.forbid(o, ["capture", "scenario", "captures", "audio"], kind: "frame")
            let i = try o.required("input").object(allowed: ["adData", "h4", "linkLayer"])
            guard i.fields.count == 1, let key = i.fields.keys.first else {
                throw try o.required("input").fail("give exactly one of adData, h4, linkLayer")
            }
            let bytesNode = try i.required(key)
            let text = try bytesNode.string()
            guard let bytes = Hex.decode(text) else { throw bytesNode.fail("not hex") }
            input = .frame(key == "adData" ? .adData(bytes) : key == "h4" ? .h4(bytes) : .linkLayer(bytes))
            let e = try expect.object(allowed: ["beacons", "advertisement", "error"])
            if let err = e.optional("error") {
                if e.has("beacons") || e.has("advertisement") { throw expect.fail("expect either error or beacons, not both") }
                let eo = try err.object(allowed: ["code", "offset"])
                let codeNode = try eo.required("code")
                let code = try codeNode.string()
                guard code.contains("/") else { throw codeNode.fail("a code is \"layer/code\", e.g. \"eddystone/truncated\"") }
                expectation = .error(key: code, offset: Int(try eo.required("offset").integer(in: 0...1_000_000)))
            } else {
                let beacons = try e.required("beacons").array().map { (b) throws(JSONInputError) in
                    _ = try b.object(allowed: Self.beaconFields)
                    return b.value
                }
                var adv: [String: JSONValue] = [:]
                if let a = e.optional("advertisement") {
                    adv = try a.object(allowed: ["address", "addressType", "rssi", "eventType", "txPower", "channel", "scanResponse", "source"]).fields
                }
                expectation = .beacons(beacons, advertisement: adv)
            }
        case "capture":
            try Self.forbid(o, ["input", "scenario", "captures", "audio"], kind: "capture")
            input = .capture(path: resolve(try o.required("capture").string()))
            let e = try expect.object(allowed: ["beacons", "records"])
            let beacons = try e.required("beacons").array().map { (b) throws(JSONInputError) in
                let bo = try b.object(allowed: Self.beaconFields + ["record"])
                _ = try bo.required("record").integer(in: 1...Int64(Int32.max))
                return b.value
            }
            let records = try e.required("records").object(allowed: ["read", "decoded", "ignored", "malformed"])
            for key in ["read", "decoded", "ignored", "malformed"] { _ = try records.required(key).integer(in: 0...Int64(Int32.max)) }
            expectation = .capture(beacons: beacons, records: records.fields)
        case "audio":
            try Self.forbid(o, ["input", "scenario", "captures", "capture"], kind: "audio")
            input = .audio(path: resolve(try o.required("audio").string()))
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
            expectation = .audioFrames(frames)
        default:
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
                input = .scenarioDocument(sNode.value)
                scenarioSource = .inline(sNode.value)
                expectation = .refused(path: path, reason: reason)
                return
            }
            var scenario: Scenario
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
            let captures = try o.optional("captures")?.array().map { (c) throws(JSONInputError) in resolve(try c.string()) } ?? []
            let audio = try o.optional("audio")?.array().map { (a) throws(JSONInputError) -> ReplaySession.AudioFile in
                if case .string(let file) = a.value { return ReplaySession.AudioFile(path: resolve(file)) }
                let ao = try a.object(allowed: ["file", "startSeconds"])
                return ReplaySession.AudioFile(path: resolve(try ao.required("file").string()),
                                               startMicros: try ao.optional("startSeconds")?.microseconds(in: -ModelJSON.timeRange.upperBound...ModelJSON.timeRange.upperBound) ?? 0)
            } ?? []
            input = .scenario(scenario, captures: captures, audio: audio)
            let e = try expect.object(allowed: ["events"])
            let events = try e.required("events").array()
            var last: Int64 = .min
            for ev in events {
                let eo = try ev.object(allowed: ["event", "time", "subscription", "publication", "message", "granted", "hasError", "custom"])
                _ = try eo.required("event").choice(EngineEvent.Kind.allCases.map(\.rawValue))
                let tNode = try eo.required("time")
                let t = try tNode.microseconds(in: -ModelJSON.timeRange.upperBound...ModelJSON.timeRange.upperBound)
                if t < last { throw tNode.fail("expected events are out of time order") }
                last = t
                if let m = eo.optional("message") { _ = try ModelJSON.message(m) }
            }
            expectation = .events(events.map(\.value))
        }
    }

    static let beaconFields = ["type", "txPower", "namespace", "instance", "reserved", "url", "scheme", "encodedUrl",
                               "reservedBytes", "version", "batteryMillivolts", "temperatureCelsius", "advertisingCount",
                               "uptimeSeconds", "data", "encryptedTlm", "salt", "mic", "nordicPadding", "eid", "hashedFlags",
                               "frameType", "uuid", "major", "minor", "measuredPower", "manufacturer", "beaconId", "token", "flags"]

    private static func forbid(_ o: JSONObject, _ keys: [String], kind: String) throws(JSONInputError) {
        for k in keys where o.has(k) { throw o.node.fail("\"\(k)\" does not belong in a \(kind) vector") }
    }
}
