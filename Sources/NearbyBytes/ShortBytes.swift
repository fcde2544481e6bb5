/// Up to 24 bytes held inline, without an allocation: the fixed-size identifiers of beacon
/// frames (an Eddystone namespace of 10 bytes and instance of 6, an iBeacon UUID of 16, an
/// AltBeacon ID of 20).
///
/// A decoder that gave each identifier its own `[UInt8]` paid for a heap allocation, a
/// reference count and a free per field per advertisement; decoding a day of captures
/// creates millions. `ShortBytes` is a plain value (three words and a length) that reads like
/// an array: a random-access collection of `UInt8`, written as an array literal, equal when
/// the bytes are equal. `Array(bytes)` gives an array where one is needed.
public struct ShortBytes: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// The largest number of bytes held.
    public static let capacity = 24

    /// Byte `i` is byte `i % 8` (little-endian) of word `i / 8`; bytes past `length` are 0,
    /// so that equal contents have equal storage.
    @usableFromInline var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    @usableFromInline var length: UInt8 = 0

    /// No bytes.
    @inlinable public init() {}

    /// The bytes of `bytes`, which must hold at most `capacity` bytes.
    @inlinable
    public init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        precondition(bytes.count <= Self.capacity, "ShortBytes holds at most \(Self.capacity) bytes, not \(bytes.count)")
        length = UInt8(bytes.count)
        withUnsafeMutableBytes(of: &words) { storage in
            if bytes.withContiguousStorageIfAvailable({ storage.copyBytes(from: $0) }) == nil {
                for (i, b) in bytes.enumerated() { storage[i] = b }
            }
        }
    }

    /// The bytes of `source` (at most `capacity`), copied at once: what `ByteCursor` reads
    /// fields with.
    @inlinable
    init(copying source: UnsafeRawBufferPointer) {
        precondition(source.count <= Self.capacity, "ShortBytes holds at most \(Self.capacity) bytes, not \(source.count)")
        length = UInt8(truncatingIfNeeded: source.count)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: source) }
    }

    @inlinable
    public init(arrayLiteral elements: UInt8...) { self.init(elements) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { Int(length) }

    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < Int(length), "ShortBytes index \(position) out of range 0..<\(length)")
        return withUnsafeBytes(of: words) { $0[position] }
    }

    @inlinable
    public static func == (a: ShortBytes, b: ShortBytes) -> Bool {
        a.length == b.length && a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(length)
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
    }

    /// The bytes in contiguous memory, so that generic code over collections of bytes
    /// (`copyBytes`, packing into words) copies them at once instead of byte by byte.
    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        var storage = words
        return try Swift.withUnsafeBytes(of: &storage) { raw in
            try raw.withMemoryRebound(to: UInt8.self) { try body(UnsafeBufferPointer(rebasing: $0[0..<Int(length)])) }
        }
    }

    /// Written as the array of the same bytes would be: `[1, 2, 3]`.
    public var description: String { Array(self).description }
}
