/// Up to 24 bytes held inline, without an allocation: the fixed-size identifiers of beacon
/// frames (an Eddystone namespace of 10 bytes and instance of 6, an iBeacon UUID of 16, an
/// AltBeacon ID of 20).
///
/// `ShortBytes` is a plain value (three words and a length) that reads like
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
        precondition(
            bytes.count <= Self.capacity, "ShortBytes holds at most \(Self.capacity) bytes, not \(bytes.count)")
        length = UInt8(bytes.count)
        withUnsafeMutableBytes(of: &words) { storage in
            if bytes.withContiguousStorageIfAvailable({ storage.copyBytes(from: $0) }) == nil {
                for (i, b) in bytes.enumerated() { storage[i] = b }
            }
        }
    }

    /// The `count` bytes (at most `capacity`) of `bytes` from byte offset `offset`, which the
    /// caller has checked are there, loaded a word at a time: what `ByteCursor` reads fields
    /// with.
    @inlinable @inline(__always)
    init(loading bytes: RawSpan, at offset: Int, count: Int) {
        precondition(
            count >= 0 && count <= Self.capacity, "ShortBytes holds at most \(Self.capacity) bytes, not \(count)")
        length = UInt8(truncatingIfNeeded: count)
        words = (
            bytes.littleEndianWord(0, from: offset, count: count),
            bytes.littleEndianWord(1, from: offset, count: count),
            bytes.littleEndianWord(2, from: offset, count: count)
        )
    }

    /// The bytes of `value`, most significant first (a big-endian field): 2 bytes for a
    /// `UInt16`, 4 for a `UInt32`, at most 8.
    @inlinable
    public init<T: FixedWidthInteger & UnsignedInteger>(bigEndian value: T) {
        precondition(T.bitWidth <= 64, "at most 8 bytes")
        length = UInt8(T.bitWidth / 8)
        // Numerically, so that it holds on any host: byte 0 (bits 0–7) is the top byte.
        words.0 = UInt64(truncatingIfNeeded: value.byteSwapped)
    }

    /// These bytes followed by those of `other`; at most `capacity` bytes in all. A few loads
    /// and stores, whatever the lengths: how a sighting's identity is made of a namespace and
    /// an instance, say, without an array.
    @inlinable
    public func appending(_ other: ShortBytes) -> ShortBytes {
        let total = Int(length) + Int(other.length)
        precondition(total <= Self.capacity, "ShortBytes holds at most \(Self.capacity) bytes, not \(total)")
        // Bytes past a length are 0 in both, so `other`'s 24 bytes can be or-ed in whole at
        // byte `length` of a 48-byte scratch, laid out in byte order; the bytes past `total`
        // stay 0.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (words.0.littleEndian, words.1.littleEndian, words.2.littleEndian, 0, 0, 0)
        let start = Int(length)
        withUnsafeMutableBytes(of: &scratch) { raw in
            @inline(__always) func or(_ word: UInt64, at offset: Int) {
                let old = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                raw.storeBytes(of: (old | word).littleEndian, toByteOffset: offset, as: UInt64.self)
            }
            or(other.words.0, at: start)
            or(other.words.1, at: start &+ 8)
            or(other.words.2, at: start &+ 16)
        }
        var result = ShortBytes()
        result.words = (
            UInt64(littleEndian: scratch.0), UInt64(littleEndian: scratch.1), UInt64(littleEndian: scratch.2)
        )
        result.length = UInt8(truncatingIfNeeded: total)
        return result
    }

    /// The bytes packed into three words: byte `i` is bits `8 * (i % 8)` up of word `i / 8`,
    /// and the bytes past `count` are 0 (equal bytes, equal words). For code that hashes or
    /// compares identifiers a word at a time.
    @inlinable public var packedWords: (UInt64, UInt64, UInt64) { words }

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
