import NearbyJSON

/// One advertisement built by `FrameGenerator`: its AD data, and the beacon objects its
/// encoder put in it, as `decode` prints them (docs/decode-output.md). The expected objects
/// are written from the values encoded, never from decoding the bytes.
struct GeneratedFrame: Sendable {
    var adData: [UInt8]
    var beacons: [JSONValue]
    /// The clauses of docs/spec/ the frame exercises.
    var clauses: [String]
    /// Names of Vectors/schema/flags.json.
    var flags: [String]
    /// What was encoded, in a phrase: `Eddystone-TLM, temperature −3.5 °C`.
    var what: String
}
