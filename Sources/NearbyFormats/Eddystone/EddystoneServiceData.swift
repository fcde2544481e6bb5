import NearbyBytes

/// An Eddystone frame read from the service data that follows the 0xFEAA UUID, frame type
/// byte first (EDDYSTONE-FRAME-2, EDDYSTONE-FRAME-3). Each frame decodes from a cursor, to the
/// cursor's end: the form the AD data decoder uses, borrowing the record's bytes.
/// `init(serviceData:)` reads a slice the same way.
public protocol EddystoneServiceData {
    /// Reads the service data at the cursor to its end; a malformed frame throws a
    /// `DecodeError` at the offending field's offset (EDDYSTONE-FRAME-1).
    init(_ c: inout ByteCursor) throws(DecodeError)
}

extension EddystoneServiceData {
    /// Decodes service data held in a slice (offsets are the slice's indices).
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(serviceData, layer: .eddystone)
        try self.init(&c)
    }
}
