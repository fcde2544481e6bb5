import NearbyRunner

/// One advertisement as a radio or a host controller interface carries it: the input of a
/// frame vector, and what ``decoded()`` reads.
public enum Frame: Sendable, Hashable {
    /// An advertisement's AD data: AD structures, each a length byte, a type byte and data
    /// (Core Specification Vol 3 Part C §11), 0–31 bytes legacy, up to 1,650 extended.
    case adData([UInt8])
    /// One HCI packet as a UART carries it (H4): the packet type byte (0x04, an event) first,
    /// then an LE Advertising Report, Extended Advertising Report or other LE Meta event.
    case h4([UInt8])
    /// One link-layer packet (LINKTYPE_BLUETOOTH_LE_LL, 251): access address (4 bytes, little
    /// endian), PDU header, payload and CRC (3 bytes).
    case linkLayer([UInt8])

    /// What the reference decoder makes of the frame: its beacons, the advertisement's
    /// fields (for HCI and link-layer input) and the first fault, exactly as `check` reads a
    /// frame vector.
    public func decoded() -> DecodedFrame {
        let input: Vector.FrameInput =
            switch self {
            case .adData(let b): .adData(b)
            case .h4(let b): .h4(b)
            case .linkLayer(let b): .linkLayer(b)
            }
        let d = VectorRunner.decodeFrame(input)
        return DecodedFrame(
            beacons: d.beacons.map(Beacon.init), advertisement: d.advertisement.map { $0.mapValues(FieldValue.init) },
            fault: d.fault.map { DecodeFault(code: $0.key, offset: $0.offset, reason: $0.reason) })
    }
}
