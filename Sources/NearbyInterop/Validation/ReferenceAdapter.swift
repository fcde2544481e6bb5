import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyReplay
import NearbyRunner

/// The project's own decoder and engine behind the interop protocol (INTEROP-30):
/// `nearby-conformance adapter` reads requests on standard input and answers each on one
/// line, so `validate --implementation 'nearby-conformance adapter'` holds the reference to
/// the same vectors `check` does, through the protocol.
public enum ReferenceAdapter {
    public static let name = "nearby-conformance reference"
    /// No release has been made: the reference is the repository's current state.
    public static let version = "unreleased"

    /// Serves until the input ends: `readLine` gives the next request line (nil at the end),
    /// `write` sends a reply line.
    package static func serve(readLine: () -> String?, write: (String) -> Void) {
        let audioFrames = AudioFrameCache()
        while let line = readLine() {
            guard case .object(let o)? = try? JSONParser.parse(line) else {
                write(
                    JSONValue.object([
                        "error": .object(["code": .string("protocol/malformed-request"), "offset": .int(0)])
                    ]).serialized)
                continue
            }
            write(answer(o, audioFrames: audioFrames).serialized)
        }
    }

    /// The reply to one request (or to the handshake); sound files are decoded through
    /// `audioFrames`.
    public static func answer(_ o: [String: JSONValue], audioFrames: AudioFrameCache = AudioFrameCache()) -> JSONValue {
        if o["hello"] != nil {
            return .object([
                "hello": .object([
                    "protocol": .int(1), "name": .string(name), "version": .string(version),
                    "levels": .array(InteropLevel.all.map { .string($0.rawValue) }),
                ])
            ])
        }
        let id = o["id"] ?? .null
        func reply(_ fields: [String: JSONValue]) -> JSONValue {
            var r = fields
            r["id"] = id
            return .object(r)
        }
        switch o["level"]?.stringValue {
        case "frames":
            guard case .object(let f)? = o["frame"], f.count == 1, let (key, value) = f.first,
                let hex = value.stringValue,
                let bytes = Hex.decode(hex)
            else {
                return reply(["unsupported": .string("a frame is {\"adData\" | \"h4\" | \"linkLayer\": HEX}")])
            }
            let input: Vector.FrameInput
            switch key {
            case "adData": input = .adData(bytes)
            case "h4": input = .h4(bytes)
            case "linkLayer": input = .linkLayer(bytes)
            default: return reply(["unsupported": .string("unknown frame input \(key)")])
            }
            let d = VectorRunner.decodeFrame(input)
            if let e = d.fault {
                return reply([
                    "error": .object(["code": .string(e.key), "offset": .int(e.offset), "reason": .string(e.reason)])
                ])
            }
            var fields: [String: JSONValue] = ["beacons": .array(d.beacons)]
            if let a = d.advertisement { fields["advertisement"] = .object(a) }
            return reply(fields)
        case "captures":
            guard let path = o["capture"]?.stringValue else {
                return reply(["unsupported": .string("no capture path")])
            }
            do {
                let d = try VectorRunner.decodeCapture(path)
                return reply(["beacons": .array(d.beacons), "records": VectorRunner.recordsJSON(d.accounting)])
            } catch {
                return reply(["unsupported": .string("\(error)")])
            }
        case "audio":
            guard let path = o["audio"]?.stringValue else { return reply(["unsupported": .string("no audio path")]) }
            do {
                return reply(["frames": .array(try audioFrames.frames(path).map(VectorRunner.audioFrameJSON))])
            } catch {
                return reply(["unsupported": .string("\(error)")])
            }
        case "events":
            guard let doc = o["scenario"] else { return reply(["unsupported": .string("no scenario")]) }
            var registryPath: String?
            let scenario: Scenario
            do {
                scenario = try Scenario(json: JSONNode(doc), registryPath: &registryPath)
            } catch {
                return reply(["refused": .object(["path": .string(error.location), "reason": .string(error.reason)])])
            }
            do {
                let result = try ReplaySession().run(scenario: scenario, captures: [], onIssue: { _ in })
                return reply(["events": .array(result.events.map(EventJSON.object))])
            } catch {
                return reply(["unsupported": .string(error.reason)])
            }
        default:
            return reply(["unsupported": .string("unknown level \((o["level"] ?? .null).serialized)")])
        }
    }
}
