import NearbyBytes

/// One AD structure: `Length(1) Type(1) Payload(Length − 1)` (AD-1; Core Vol 3 Part C §11).
public struct ADStructure: Sendable {
    /// The AD type: the byte after the length byte (at `offset + 1`).
    public var type: ADType
    /// The payload, with the indices of the AD data it was carved from.
    public var payload: ArraySlice<UInt8>
    /// Offset of the structure's length byte.
    public var offset: Int

    /// A structure of `type` whose payload is `payload` (Length − 1 bytes) and whose length
    /// byte is at `offset` of the AD data: what `forEach(in:_:)` gives its body.
    @inlinable
    public init(type: ADType, payload: ArraySlice<UInt8>, offset: Int) {
        self.type = type
        self.payload = payload
        self.offset = offset
    }

    /// The AD structures of `data` in order, read as `forEach(in:_:)` walks them; the first
    /// fault throws (AD-2, AD-3).
    public static func structures(in data: ArraySlice<UInt8>) throws(DecodeError) -> [ADStructure] {
        var found: [ADStructure] = []
        try forEach(in: data) { (ad: ADStructure) throws(DecodeError) in found.append(ad) }
        return found
    }

    /// Walks the AD structures of `data` in order, strictly: a length byte of 0 ends the
    /// data (what follows is padding, as in Android's zero-filled scan records: AD-2); a
    /// structure whose length overruns the data is `length-overrun` at its length byte,
    /// and nothing beyond it is read (AD-3). Structures before the fault have been visited.
    @inlinable
    package static func forEach(
        in data: ArraySlice<UInt8>, _ body: (ADStructure) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        var c = ByteCursor(data, layer: .adStructure)
        while let header = try readHeader(&c) {
            // `readHeader` has checked that the payload is there.
            let payload = try c.readDeclaredRange(header.payloadLength, declaredAt: header.offset, "AD data")
            try body(ADStructure(type: header.type, payload: data[payload], offset: header.offset))
        }
    }

    /// Reads the length and type of the structure at the cursor, checking that all of it is
    /// there, and leaves the cursor at its payload: for walks that skip the payloads of types
    /// they do not decode. Nil at the end of the data or at a length byte of 0.
    @inlinable
    package static func readHeader(
        _ c: inout ByteCursor
    ) throws(DecodeError) -> (type: ADType, offset: Int, payloadLength: Int)? {
        if c.isAtEnd { return nil }
        let offset = c.readerIndex
        let length = Int(try c.readUInt8("AD length"))
        if length == 0 { return nil }  // AD-2
        try c.expectDeclared(length, declaredAt: offset, "AD structure")  // AD-3
        let type = ADType(rawValue: try c.readUInt8("AD type"))
        return (type, offset, length - 1)
    }
}
