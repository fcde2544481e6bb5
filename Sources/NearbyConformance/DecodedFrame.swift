/// A frame as the reference decoder reads it (``Frame/decoded()``).
public struct DecodedFrame: Sendable, Hashable {
    /// The beacon frames found, in the order of their AD structures.
    public var beacons: [Beacon]
    /// The advertisement's fields (`address`, `addressType`, `rssi`, `pdu`, …, as `decode`
    /// prints a line) for HCI and link-layer input; nil for AD data alone.
    public var advertisement: [String: FieldValue]?
    /// The first fault, if the frame is malformed anywhere; beacons decoded before it are
    /// still given.
    public var fault: DecodeFault?

    /// Makes a decoded frame (an implementation under test builds its answer with this).
    public init(beacons: [Beacon], advertisement: [String: FieldValue]? = nil, fault: DecodeFault? = nil) {
        self.beacons = beacons
        self.advertisement = advertisement
        self.fault = fault
    }
}
