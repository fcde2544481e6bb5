import NearbyBytes
import NearbyConformance
import NearbyJSON

extension ConformanceRequest {
    /// The request of the interop protocol's `fields` (INTEROP-21 to INTEROP-24), or nil
    /// when they are not one.
    init?(fields o: [String: JSONValue]) {
        switch o["level"] {
        case .string("frames")?:
            guard case .object(let f)? = o["frame"], f.count == 1, let (key, value) = f.first,
                case .string(let hex) = value, let bytes = Hex.decode(hex)
            else { return nil }
            switch key {
            case "adData": self = .frame(.adData(bytes))
            case "h4": self = .frame(.h4(bytes))
            case "linkLayer": self = .frame(.linkLayer(bytes))
            default: return nil
            }
        case .string("captures")?:
            guard case .string(let path)? = o["capture"] else { return nil }
            self = .capture(path: path)
        case .string("audio")?:
            guard case .string(let path)? = o["audio"] else { return nil }
            self = .audio(path: path)
        case .string("events")?:
            guard let scenario = o["scenario"] else { return nil }
            self = .scenario(FieldValue(scenario))
        default:
            return nil
        }
    }

    /// The request as the interop protocol sends it (without its `id`).
    var json: [String: JSONValue] {
        switch self {
        case .frame(let frame):
            let (key, bytes): (String, [UInt8]) =
                switch frame {
                case .adData(let b): ("adData", b)
                case .h4(let b): ("h4", b)
                case .linkLayer(let b): ("linkLayer", b)
                }
            return ["level": .string("frames"), "frame": .object([key: .string(Hex.encode(bytes))])]
        case .capture(let path): return ["level": .string("captures"), "capture": .string(path)]
        case .audio(let path): return ["level": .string("audio"), "audio": .string(path)]
        case .scenario(let scenario): return ["level": .string("events"), "scenario": scenario.json]
        }
    }
}
