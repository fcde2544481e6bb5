/// Where and why a frame or record is malformed: the decoder's fault, located to the byte.
public struct DecodeFault: Error, Sendable, Hashable, CustomStringConvertible {
    /// `layer/code`, e.g. `eddystone/truncated` or `ad/length-overrun`: the layer that found
    /// the fault and what it is (the specification's fault codes).
    public var code: String
    /// The byte offset of the fault in the frame (the AD data, the H4 packet or the
    /// link-layer packet), from 0.
    public var offset: Int
    /// One sentence for people.
    public var reason: String

    /// Makes a fault.
    public init(code: String, offset: Int, reason: String = "") {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// `CODE at offset N: REASON`.
    public var description: String { "\(code) at offset \(offset)" + (reason.isEmpty ? "" : ": \(reason)") }
}
