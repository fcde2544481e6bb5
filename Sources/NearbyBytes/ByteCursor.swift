/// The one reader for bytes in this package.
///
/// A cursor walks an `ArraySlice<UInt8>` without copying it. Every `read…` either
/// consumes exactly the bytes it returns or throws and consumes nothing. Multi-byte
/// reads name their byte order. Offsets (`readerIndex`, error offsets) are indices of
/// the underlying slice, so a cursor over a sub-slice still reports offsets relative to
/// the start of the record it was carved from.
///
/// Modelled on swift-nio's `ByteBuffer` (one cursor, explicit endianness) and swift-asn1
/// (carve a length-prefixed field into its own slice, then parse the slice).
///
/// Every read is `@inlinable`, so that decoders in other modules compile to direct loads
/// (no call, no retain of the slice per field); the messages of errors are built in
/// functions kept out of line, on the cold path.
public struct ByteCursor: Sendable {
    /// The bytes this cursor reads, indices unchanged from the enclosing record.
    public let bytes: ArraySlice<UInt8>
    /// Index of the next byte to read.
    @inlinable public var readerIndex: Int { _readerIndex }
    @usableFromInline var _readerIndex: Int
    /// The layer named in the errors this cursor throws.
    public var layer: DecodeError.Layer

    @inlinable
    public init(_ bytes: ArraySlice<UInt8>, layer: DecodeError.Layer) {
        self.bytes = bytes
        self._readerIndex = bytes.startIndex
        self.layer = layer
    }

    @inlinable
    public init(_ bytes: [UInt8], layer: DecodeError.Layer) {
        self.init(bytes[...], layer: layer)
    }

    /// Bytes not yet read.
    @inlinable public var readableBytes: Int { bytes.endIndex - _readerIndex }
    @inlinable public var isAtEnd: Bool { _readerIndex >= bytes.endIndex }

    /// An error of this cursor's layer at `offset` (default: the reader index).
    public func error(_ code: DecodeError.Code, at offset: Int? = nil, _ reason: String) -> DecodeError {
        DecodeError(layer, code, at: offset ?? readerIndex, reason)
    }

    @inlinable @inline(__always)
    func require(_ count: Int, _ field: StaticString) throws(DecodeError) {
        if _slowPath(count > readableBytes) { throw truncated(count, field) }
    }

    @usableFromInline @inline(never)
    func truncated(_ count: Int, _ field: StaticString) -> DecodeError {
        error(.truncated, "\(field): needs \(count) byte\(count == 1 ? "" : "s"), \(readableBytes) left")
    }

    /// The `T` at `offset` bytes past the reader index, in memory order (the caller has
    /// checked that the bytes are there).
    @inlinable @inline(__always)
    func load<T: FixedWidthInteger>(_: T.Type, at offset: Int = 0) -> T {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: _readerIndex - bytes.startIndex + offset, as: T.self) }
    }

    @inlinable
    public func peekUInt8() -> UInt8? {
        isAtEnd ? nil : bytes[_readerIndex]
    }

    @inlinable
    public mutating func readUInt8(_ field: StaticString) throws(DecodeError) -> UInt8 {
        try require(1, field)
        defer { _readerIndex += 1 }
        return bytes[_readerIndex]
    }

    @inlinable
    public mutating func readInt8(_ field: StaticString) throws(DecodeError) -> Int8 {
        Int8(bitPattern: try readUInt8(field))
    }

    @inlinable
    public mutating func readUInt16LE(_ field: StaticString) throws(DecodeError) -> UInt16 {
        try require(2, field)
        defer { _readerIndex += 2 }
        return UInt16(bytes[_readerIndex]) | UInt16(bytes[_readerIndex + 1]) << 8
    }

    @inlinable
    public mutating func readUInt16BE(_ field: StaticString) throws(DecodeError) -> UInt16 {
        try require(2, field)
        defer { _readerIndex += 2 }
        return UInt16(bytes[_readerIndex]) << 8 | UInt16(bytes[_readerIndex + 1])
    }

    @inlinable
    public mutating func readInt16BE(_ field: StaticString) throws(DecodeError) -> Int16 {
        Int16(bitPattern: try readUInt16BE(field))
    }

    @inlinable
    public mutating func readUInt24LE(_ field: StaticString) throws(DecodeError) -> UInt32 {
        try require(3, field)
        defer { _readerIndex += 3 }
        return UInt32(bytes[_readerIndex]) | UInt32(bytes[_readerIndex + 1]) << 8 | UInt32(bytes[_readerIndex + 2]) << 16
    }

    @inlinable
    public mutating func readUInt32LE(_ field: StaticString) throws(DecodeError) -> UInt32 {
        try require(4, field)
        defer { _readerIndex += 4 }
        return UInt32(littleEndian: load(UInt32.self))
    }

    @inlinable
    public mutating func readUInt32BE(_ field: StaticString) throws(DecodeError) -> UInt32 {
        try require(4, field)
        defer { _readerIndex += 4 }
        return UInt32(bigEndian: load(UInt32.self))
    }

    @inlinable
    public mutating func readInt64BE(_ field: StaticString) throws(DecodeError) -> Int64 {
        try require(8, field)
        defer { _readerIndex += 8 }
        return Int64(bitPattern: UInt64(bigEndian: load(UInt64.self)))
    }

    /// Reads a 48-bit Bluetooth device address stored least significant byte first.
    @inlinable
    public mutating func readAddressLE(_ field: StaticString) throws(DecodeError) -> UInt64 {
        try require(6, field)
        defer { _readerIndex += 6 }
        return UInt64(UInt32(littleEndian: load(UInt32.self))) | UInt64(UInt16(littleEndian: load(UInt16.self, at: 4))) << 32
    }

    /// Reads `count` bytes of a fixed-size field.
    @inlinable
    public mutating func readSlice(_ count: Int, _ field: StaticString) throws(DecodeError) -> ArraySlice<UInt8> {
        try require(count, field)
        defer { _readerIndex += count }
        return bytes[_readerIndex..<_readerIndex + count]
    }

    /// Carves a field whose length was declared by a length field at `lengthOffset`.
    /// Throws `lengthOverrun` at `lengthOffset` when the container is too short.
    @inlinable
    public mutating func readDeclared(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString
    ) throws(DecodeError) -> ArraySlice<UInt8> {
        try expectDeclared(count, declaredAt: lengthOffset, field)
        defer { _readerIndex += count }
        return bytes[_readerIndex..<_readerIndex + count]
    }

    /// Checks, without reading, that the `count` bytes a length field at `lengthOffset`
    /// declares are there: the check (and error) of `readDeclared`.
    @inlinable
    public func expectDeclared(_ count: Int, declaredAt lengthOffset: Int, _ field: StaticString) throws(DecodeError) {
        if _slowPath(count > readableBytes) { throw overrun(count, declaredAt: lengthOffset, field) }
    }

    /// Checks that a field whose length was declared at `lengthOffset` is exactly what is
    /// left, without reading it: `lengthOverrun` (at `lengthOffset`) when fewer bytes are
    /// left, `trailingBytes` (after the field) when more, the errors of `readDeclared`
    /// followed by `expectEnd(structure)`.
    @inlinable
    public func expectDeclaredRest(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString, of structure: StaticString
    ) throws(DecodeError) {
        if _slowPath(count > readableBytes) { throw overrun(count, declaredAt: lengthOffset, field) }
        if _slowPath(count < readableBytes) { throw trailing(structure, at: _readerIndex + count, count: readableBytes - count) }
    }

    /// Reads everything that is left.
    @inlinable
    public mutating func readRest() -> ArraySlice<UInt8> {
        defer { _readerIndex = bytes.endIndex }
        return bytes[_readerIndex...]
    }

    @inlinable
    public mutating func skip(_ count: Int, _ field: StaticString) throws(DecodeError) {
        try require(count, field)
        _readerIndex += count
    }

    /// Throws `trailingBytes` unless every byte has been read.
    @inlinable
    public func expectEnd(_ structure: StaticString) throws(DecodeError) {
        if _slowPath(!isAtEnd) { throw trailing(structure, at: _readerIndex, count: readableBytes) }
    }

    @usableFromInline @inline(never)
    func overrun(_ count: Int, declaredAt lengthOffset: Int, _ field: StaticString) -> DecodeError {
        error(.lengthOverrun, at: lengthOffset,
              "\(field): length \(count) overruns its container (\(readableBytes) byte\(readableBytes == 1 ? "" : "s") left)")
    }

    @usableFromInline @inline(never)
    func trailing(_ structure: StaticString, at offset: Int, count: Int) -> DecodeError {
        error(.trailingBytes, at: offset, "\(structure): \(count) unexpected byte\(count == 1 ? "" : "s") after the end")
    }
}

extension ArraySlice<UInt8> {
    /// True when the slice begins with the bytes `first`, `second` (a two-byte magic
    /// number), without building an array to compare with.
    @inlinable
    public func starts(with first: UInt8, _ second: UInt8) -> Bool {
        count >= 2 && self[startIndex] == first && self[startIndex + 1] == second
    }
}
