/// The readers of `ByteCursor` that copy a field into `InlineBytes`: the AD data of reports
/// and PDUs, and the encoded bytes of Eddystone-URL frames.
extension ByteCursor {
    /// Reads a field whose length was declared by a length field at `lengthOffset` into
    /// `InlineBytes` indexed by record offsets (the errors of `carveDeclared`).
    @inlinable
    public mutating func readDeclaredInlineBytes(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString
    ) throws(DecodeError) -> InlineBytes {
        try expectDeclared(count, declaredAt: lengthOffset, field)
        defer { position &+= count }
        let start = readerIndex
        return bytes.withUnsafeBytes {
            InlineBytes(copying: UnsafeRawBufferPointer(rebasing: $0[position..<position &+ count]), startIndex: start)
        }
    }

    /// Reads a field whose length was declared at `lengthOffset` into `destination` (the
    /// bytes `readDeclaredInlineBytes` returns, written in place; the errors of
    /// `carveDeclared`, which leave `destination` as it was).
    @inlinable @inline(__always)
    package mutating func readDeclaredInlineBytes(
        _ count: Int, declaredAt lengthOffset: Int, _ field: StaticString, into destination: inout InlineBytes?
    ) throws(DecodeError) {
        try expectDeclared(count, declaredAt: lengthOffset, field)
        defer { position &+= count }
        let start = readerIndex
        bytes.withUnsafeBytes {
            let field = UnsafeRawBufferPointer(rebasing: $0[position..<position &+ count])
            destination.storeCopy(of: field, startIndex: start)
        }
    }

    /// Reads everything that is left into `InlineBytes` indexed by record offsets, or from
    /// `startIndex` when given.
    @inlinable
    public mutating func readRestInlineBytes(startIndex: Int? = nil) -> InlineBytes {
        defer { position = bytes.count }
        let start = startIndex ?? readerIndex
        return bytes.withUnsafeBytes {
            InlineBytes(copying: UnsafeRawBufferPointer(rebasing: $0[position...]), startIndex: start)
        }
    }
}
