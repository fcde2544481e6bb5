/// Appends integers to byte arrays in a stated byte order: the writers' counterpart of
/// `ByteCursor`.
extension Array where Element == UInt8 {
    mutating func appendBE<T: FixedWidthInteger>(_ value: T) {
        for i in (0..<(T.bitWidth / 8)).reversed() { append(UInt8(truncatingIfNeeded: value >> (i * 8))) }
    }

    mutating func appendLE<T: FixedWidthInteger>(_ value: T) {
        for i in 0..<(T.bitWidth / 8) { append(UInt8(truncatingIfNeeded: value >> (i * 8))) }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` big-endian when `bigEndian`, else little-endian.
    mutating func append<T: FixedWidthInteger>(_ value: T, bigEndian: Bool) {
        if bigEndian { appendBE(value) } else { appendLE(value) }
    }
}
