/// The one reader for bytes in this package.
///
/// A cursor walks bytes it borrows — a `Span<UInt8>` over a record's storage — without
/// copying them or holding a reference to them: no retain or release per field, per
/// structure or per sub-cursor. Because it borrows, a cursor cannot outlive the bytes it reads (the
/// compiler enforces it); what a decoder keeps, it copies out (`readShortBytes`,
/// `readArray`, `readDeclaredInlineBytes`) or takes as a range of the record
/// (`readDeclaredRange`) to slice from the record's own array.
///
/// Every `read…` either consumes exactly the bytes it returns or throws and consumes
/// nothing. Multi-byte reads name their byte order. Offsets (`readerIndex`, error offsets,
/// ranges) are offsets of the record the bytes were carved from: a cursor over a
/// sub-slice, or a cursor carved from another (`carve`), still reports them relative to
/// the start of the record.
///
/// Modelled on swift-nio's `ByteBuffer` (one cursor, explicit endianness) and swift-asn1
/// (carve a length-prefixed field into its own cursor, then parse it).
///
/// Every read is `@inlinable`, so that decoders in other modules compile to direct loads;
/// the messages of errors are built in functions kept out of line, on the cold path.
public struct ByteCursor: ~Escapable {
    /// The bytes this cursor reads: `bytes[i]` is byte `startIndex + i` of the record.
    public let bytes: Span<UInt8>
    /// The record offset of `bytes[0]`.
    public let startIndex: Int
    /// Position of the next byte to read in `bytes`.
    @usableFromInline var position: Int
    /// The layer named in the errors this cursor throws.
    public var layer: DecodeError.Layer

    /// A cursor over `bytes`, whose first byte is at record offset `startIndex`.
    @inlinable @_lifetime(copy bytes)
    public init(_ bytes: Span<UInt8>, startIndex: Int = 0, layer: DecodeError.Layer) {
        self.bytes = bytes
        self.startIndex = startIndex
        self.position = 0
        self.layer = layer
    }

    /// A cursor over the slice, with the slice's indices as offsets.
    @inlinable @_lifetime(borrow bytes)
    public init(_ bytes: borrowing ArraySlice<UInt8>, layer: DecodeError.Layer) {
        self.init(bytes.span, startIndex: bytes.startIndex, layer: layer)
    }

    /// A cursor over the array, offsets from 0.
    @inlinable @_lifetime(borrow bytes)
    public init(_ bytes: borrowing [UInt8], layer: DecodeError.Layer) {
        self.init(bytes.span, layer: layer)
    }

    /// Record offset of the next byte to read.
    @inlinable public var readerIndex: Int { startIndex &+ position }
    /// Record offset just past the last byte.
    @inlinable public var endIndex: Int { startIndex &+ bytes.count }
    /// Bytes not yet read.
    @inlinable public var readableBytes: Int { bytes.count &- position }
    @inlinable public var isAtEnd: Bool { position >= bytes.count }

    /// An error of this cursor's layer at `offset` (default: the reader index).
    public func error(_ code: DecodeError.Code, at offset: Int? = nil, _ reason: String) -> DecodeError {
        DecodeError(layer, code, at: offset ?? readerIndex, reason)
    }

    @inlinable @inline(__always)
    func require(_ count: Int, _ field: StaticString) throws(DecodeError) {
        if _slowPath(count > readableBytes || count < 0) { throw truncated(count, field) }
    }

    @usableFromInline @inline(never)
    func truncated(_ count: Int, _ field: StaticString) -> DecodeError {
        error(.truncated, "\(field): needs \(count) byte\(count == 1 ? "" : "s"), \(readableBytes) left")
    }

    /// The `T` at `offset` bytes past the reader index, in memory order (the caller has
    /// checked that the bytes are there).
    @inlinable @inline(__always)
    func load<T: FixedWidthInteger & BitwiseCopyable>(_: T.Type, at offset: Int = 0) -> T {
        bytes.bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: position &+ offset, as: T.self)
    }

    /// The byte `ahead` bytes past the reader index (0: the next to read), without reading
    /// it; nil past the end.
    @inlinable
    public func peekUInt8(ahead: Int = 0) -> UInt8? {
        let i = position &+ ahead
        return ahead >= 0 && i < bytes.count ? bytes[unchecked: i] : nil
    }

    @inlinable
    public mutating func readUInt8(_ field: StaticString) throws(DecodeError) -> UInt8 {
        try require(1, field)
        defer { position &+= 1 }
        return bytes[unchecked: position]
    }

    @inlinable
    public mutating func readInt8(_ field: StaticString) throws(DecodeError) -> Int8 {
        Int8(bitPattern: try readUInt8(field))
    }

    @inlinable
    public mutating func readUInt16LE(_ field: StaticString) throws(DecodeError) -> UInt16 {
        try require(2, field)
        defer { position &+= 2 }
        return UInt16(littleEndian: load(UInt16.self))
    }

    @inlinable
    public mutating func readUInt16BE(_ field: StaticString) throws(DecodeError) -> UInt16 {
        try require(2, field)
        defer { position &+= 2 }
        return UInt16(bigEndian: load(UInt16.self))
    }

    @inlinable
    public mutating func readInt16BE(_ field: StaticString) throws(DecodeError) -> Int16 {
        Int16(bitPattern: try readUInt16BE(field))
    }

    @inlinable
    public mutating func readUInt24LE(_ field: StaticString) throws(DecodeError) -> UInt32 {
        try require(3, field)
        defer { position &+= 3 }
        return UInt32(UInt16(littleEndian: load(UInt16.self))) | UInt32(load(UInt8.self, at: 2)) << 16
    }

    @inlinable
    public mutating func readUInt32LE(_ field: StaticString) throws(DecodeError) -> UInt32 {
        try require(4, field)
        defer { position &+= 4 }
        return UInt32(littleEndian: load(UInt32.self))
    }

    @inlinable
    public mutating func readUInt32BE(_ field: StaticString) throws(DecodeError) -> UInt32 {
        try require(4, field)
        defer { position &+= 4 }
        return UInt32(bigEndian: load(UInt32.self))
    }

    @inlinable
    public mutating func readInt64BE(_ field: StaticString) throws(DecodeError) -> Int64 {
        try require(8, field)
        defer { position &+= 8 }
        return Int64(bitPattern: UInt64(bigEndian: load(UInt64.self)))
    }

    /// Reads a 48-bit Bluetooth device address stored least significant byte first.
    @inlinable
    public mutating func readAddressLE(_ field: StaticString) throws(DecodeError) -> UInt64 {
        try require(6, field)
        defer { position &+= 6 }
        return UInt64(UInt32(littleEndian: load(UInt32.self))) | UInt64(UInt16(littleEndian: load(UInt16.self, at: 4)))
            << 32
    }

    /// Reads `count` bytes (at most `ShortBytes.capacity`) of a fixed-size field into a
    /// `ShortBytes`, without an allocation.
    @inlinable @inline(__always)
    public mutating func readShortBytes(_ count: Int, _ field: StaticString) throws(DecodeError) -> ShortBytes {
        try require(count, field)
        defer { position &+= count }
        return ShortBytes(loading: bytes.bytes, at: position, count: count)
    }

    /// Reads `count` bytes of a field into an array of its own.
    @inlinable
    public mutating func readArray(_ count: Int, _ field: StaticString) throws(DecodeError) -> [UInt8] {
        try require(count, field)
        defer { position &+= count }
        return bytes.extracting(unchecked: position..<position &+ count).withUnsafeBufferPointer { Array($0) }
    }

    /// Reads everything that is left into an array of its own.
    @inlinable
    public mutating func readRestArray() -> [UInt8] {
        defer { position = bytes.count }
        return bytes.extracting(unchecked: position..<bytes.count).withUnsafeBufferPointer { Array($0) }
    }

    /// Carves the next `count` bytes of a fixed-size field into a cursor of their own
    /// (same layer, same record offsets), and moves past them.
    @inlinable @_lifetime(copy self)
    public mutating func carve(_ count: Int, _ field: StaticString) throws(DecodeError) -> ByteCursor {
        try require(count, field)
        defer { position &+= count }
        return ByteCursor(
            bytes.extracting(unchecked: position..<position &+ count), startIndex: readerIndex, layer: layer)
    }

    /// Carves a field whose length was declared by a length field at `lengthOffset` into a
    /// cursor of its own. Throws `lengthOverrun` at `lengthOffset` when the container is too
    /// short.
    @inlinable @_lifetime(copy self)
    public mutating func carveDeclared(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString
    ) throws(DecodeError) -> ByteCursor {
        try expectDeclared(count, declaredAt: lengthOffset, field)
        defer { position &+= count }
        return ByteCursor(
            bytes.extracting(unchecked: position..<position &+ count), startIndex: readerIndex, layer: layer)
    }

    /// Moves past a field whose length was declared at `lengthOffset` and returns its record
    /// offsets, for a decoder that keeps the field as a slice of the record's own array.
    /// The errors of `carveDeclared`.
    @inlinable
    public mutating func readDeclaredRange(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString
    ) throws(DecodeError) -> Range<Int> {
        try expectDeclared(count, declaredAt: lengthOffset, field)
        defer { position &+= count }
        return readerIndex..<readerIndex &+ count
    }

    /// Moves to the end and returns the record offsets of what was left.
    @inlinable
    public mutating func readRestRange() -> Range<Int> {
        defer { position = bytes.count }
        return readerIndex..<endIndex
    }

    /// Checks, without reading, that the `count` bytes a length field at `lengthOffset`
    /// declares are there: the check (and error) of `carveDeclared`.
    @inlinable
    public func expectDeclared(_ count: Int, declaredAt lengthOffset: Int, _ field: StaticString) throws(DecodeError) {
        if _slowPath(count > readableBytes || count < 0) { throw overrun(count, declaredAt: lengthOffset, field) }
    }

    /// Checks that a field whose length was declared at `lengthOffset` is exactly what is
    /// left, without reading it: `lengthOverrun` (at `lengthOffset`) when fewer bytes are
    /// left, `trailingBytes` (after the field) when more, the errors of `carveDeclared`
    /// followed by `expectEnd(structure)`.
    @inlinable
    public func expectDeclaredRest(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString, of structure: StaticString
    ) throws(DecodeError) {
        if _slowPath(count > readableBytes || count < 0) { throw overrun(count, declaredAt: lengthOffset, field) }
        if _slowPath(count < readableBytes) {
            throw trailing(structure, at: readerIndex &+ count, count: readableBytes &- count)
        }
    }

    @inlinable
    public mutating func skip(_ count: Int, _ field: StaticString) throws(DecodeError) {
        try require(count, field)
        position &+= count
    }

    /// Throws `trailingBytes` unless every byte has been read.
    @inlinable
    public func expectEnd(_ structure: StaticString) throws(DecodeError) {
        if _slowPath(!isAtEnd) { throw trailing(structure, at: readerIndex, count: readableBytes) }
    }

    @usableFromInline @inline(never)
    func overrun(_ count: Int, declaredAt lengthOffset: Int, _ field: StaticString) -> DecodeError {
        error(
            .lengthOverrun, at: lengthOffset,
            "\(field): length \(count) overruns its container (\(readableBytes) byte\(readableBytes == 1 ? "" : "s") "
                + "left)"
        )
    }

    @usableFromInline @inline(never)
    func trailing(_ structure: StaticString, at offset: Int, count: Int) -> DecodeError {
        error(
            .trailingBytes, at: offset, "\(structure): \(count) unexpected byte\(count == 1 ? "" : "s") after the end")
    }
}
