import NearbyBytes

/// An Eddystone frame read from the service data that follows the 0xFEAA UUID, frame type
/// byte first (EDDYSTONE-FRAME-2, EDDYSTONE-FRAME-3).
public protocol EddystoneServiceData {
    /// Decodes service data held in a slice (offsets are the slice's indices); a malformed
    /// frame throws a `DecodeError` at the offending field's offset (EDDYSTONE-FRAME-1).
    init(serviceData: ArraySlice<UInt8>) throws(DecodeError)
}

/// The form the AD data decoder uses: a frame read from a cursor to the cursor's end,
/// borrowing the record's bytes.
package protocol EddystoneCursorFrame: EddystoneServiceData {
    /// Reads the service data at the cursor to its end, as `init(serviceData:)` reads it.
    init(_ c: inout ByteCursor) throws(DecodeError)
}

extension EddystoneCursorFrame {
    /// `init(serviceData:)`: a cursor over the slice, read to its end.
    package static func decoding(_ serviceData: ArraySlice<UInt8>) throws(DecodeError) -> Self {
        var c = ByteCursor(serviceData, layer: .eddystone)
        return try Self(&c)
    }
}
