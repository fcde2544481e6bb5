/// Bytes that own their storage without a reference count when they are few: up to
/// `inlineCapacity` (32) bytes are held inline, more on the heap. An advertisement's AD data
/// is one: every legacy advertisement's (at most 31 bytes) fits inline, so that decoding,
/// handing on and dropping an advertisement costs no retain, release or allocation, and
/// keeps nothing of the reader's buffer alive; reassembled extended data (up to 1,650 bytes)
/// goes to the heap.
///
/// A random-access collection of `UInt8` whose indices are `startIndex..<endIndex`, where
/// `startIndex` is chosen by the maker: the offset in the record the bytes were read from,
/// so that positions (and decode errors) inside them are record offsets, as for a slice.
/// Equal when the bytes are equal, whatever the indices (like `ArraySlice`).
public struct InlineBytes: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// The largest number of bytes held inline.
    public static let inlineCapacity = 32

    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The bytes, when there are more than `inlineCapacity`; nil otherwise.
    @usableFromInline var heap: [UInt8]?
    @usableFromInline var length: Int = 0
    public let startIndex: Int

    /// No bytes.
    @inlinable public init() { startIndex = 0 }

    /// A copy of `source`, indexed from `startIndex`.
    @inlinable
    package init(copying source: UnsafeRawBufferPointer, startIndex: Int = 0) {
        self.startIndex = startIndex
        length = source.count
        if source.count <= Self.inlineCapacity {
            if let from = source.baseAddress { words = Self.words(from, count: source.count) }
        } else {
            heap = Array(source)
        }
    }

    /// A copy of `bytes`, indexed from `startIndex`.
    @inlinable
    public init<C: Collection>(_ bytes: C, startIndex: Int = 0) where C.Element == UInt8 {
        if let copy = bytes.withContiguousStorageIfAvailable({
            InlineBytes(copying: UnsafeRawBufferPointer($0), startIndex: startIndex)
        }) {
            self = copy
        } else {
            self = Array(bytes).withUnsafeBytes { InlineBytes(copying: $0, startIndex: startIndex) }
        }
    }

    /// The `count` (0…32) bytes at `from` as the four words of `words`, zero past `count`,
    /// read with loads that stay inside the `count` bytes.
    @inlinable @inline(__always)
    static func words(_ from: UnsafeRawPointer, count n: Int) -> (UInt64, UInt64, UInt64, UInt64) {
        #if _endian(little)
        @inline(__always) func load(_ offset: Int) -> UInt64 {
            from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        if n < 8 {
            if n >= 4 {
                let head = UInt64(from.loadUnaligned(as: UInt32.self))
                let tail = UInt64(from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
                return (head | tail &<< UInt64((n &- 4) &* 8), 0, 0, 0)
            }
            guard n > 0 else { return (0, 0, 0, 0) }
            let first = UInt64(from.load(as: UInt8.self))
            let middle = UInt64(from.load(fromByteOffset: n &>> 1, as: UInt8.self))
            let last = UInt64(from.load(fromByteOffset: n &- 1, as: UInt8.self))
            return (first | middle &<< UInt64((n &>> 1) &* 8) | last &<< UInt64((n &- 1) &* 8), 0, 0, 0)
        }
        // Word k holds bytes 8k..<8k+8: loaded whole when they are all there; the partial
        // last word is the top of the 8 bytes that end at `n`, shifted down.
        let end = load(n &- 8)
        @inline(__always) func word(_ k: Int) -> UInt64 {
            let start = k &* 8
            if start &+ 8 <= n { return load(start) }
            if start >= n { return 0 }
            return end &>> UInt64((start &+ 8 &- n) &* 8)
        }
        return (word(0), word(1), word(2), word(3))
        #else
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: from, byteCount: n) }
        return words
        #endif
    }

    /// The bytes of `words` (little-endian order, zero past `count`, at most 32).
    @inlinable @inline(__always)
    init(words: (UInt64, UInt64, UInt64, UInt64), count: Int, startIndex: Int) {
        self.words = words
        length = count
        self.startIndex = startIndex
    }

    @inlinable
    public init(arrayLiteral elements: UInt8...) { self.init(elements) }

    @inlinable public var endIndex: Int { startIndex &+ length }
    @inlinable public var count: Int { length }

    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(
            position >= startIndex && position < endIndex,
            "InlineBytes index \(position) out of range \(startIndex)..<\(endIndex)")
        return withUnsafeBytes { $0[position &- startIndex] }
    }

    /// True when the bytes are on the heap (more than `inlineCapacity`): only then does the
    /// value hold a reference.
    @inlinable public var isOnHeap: Bool { heap != nil }

    /// Calls `body` with the bytes in contiguous memory (valid only during the call).
    @inlinable
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let heap { return try heap.withUnsafeBytes(body) }
        var storage = words
        return try Swift.withUnsafeBytes(of: &storage) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try withUnsafeBytes { try body($0.assumingMemoryBound(to: UInt8.self)) }
    }

    @inlinable
    public static func == (a: InlineBytes, b: InlineBytes) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.elementsEqual(y) } }
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Written as the array of the same bytes would be: `[1, 2, 3]`.
    public var description: String { Array(self).description }
}

extension InlineBytes {
    /// Calls `body` with a cursor over the bytes (offsets are this collection's indices),
    /// valid only during the call.
    @inlinable
    package func withCursor<R>(layer: DecodeError.Layer, _ body: (inout ByteCursor) -> R) -> R {
        withUnsafeBytes { raw in
            var c = ByteCursor(Span<UInt8>(_unsafeBytes: raw), startIndex: startIndex, layer: layer)
            return body(&c)
        }
    }
}

extension InlineBytes {
    /// Calls `body` with a cursor over the bytes where they are held, valid only during the
    /// call: `withCursor` reads a copy of inline bytes, which costs a stall when they were
    /// just written. Mutating only to take their address; nothing is changed.
    @inlinable
    package mutating func withCursorInPlace<R>(layer: DecodeError.Layer, _ body: (inout ByteCursor) -> R) -> R {
        let (count, start) = (length, startIndex)
        if let heap {
            return heap.withUnsafeBytes { raw in
                var c = ByteCursor(Span<UInt8>(_unsafeBytes: raw), startIndex: start, layer: layer)
                return body(&c)
            }
        }
        return Swift.withUnsafeMutableBytes(of: &words) { raw in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<count])
            var c = ByteCursor(Span<UInt8>(_unsafeBytes: bytes), startIndex: start, layer: layer)
            return body(&c)
        }
    }
}

extension Optional where Wrapped == InlineBytes {
    /// Replaces the value with a copy of `source` indexed from `startIndex`, as `store` of
    /// `InlineBytes(copying:startIndex:)` does, writing inline bytes in place.
    @inlinable @inline(__always)
    package mutating func storeCopy(of source: UnsafeRawBufferPointer, startIndex: Int) {
        guard source.count <= InlineBytes.inlineCapacity, self?.heap == nil else {
            self = InlineBytes(copying: source, startIndex: startIndex)
            return
        }
        let words = source.baseAddress.map { InlineBytes.words($0, count: source.count) } ?? (0, 0, 0, 0)
        withUnsafeMutablePointer(to: &self) {
            $0.initialize(to: InlineBytes(words: words, count: source.count, startIndex: startIndex))
        }
    }

    /// Replaces the value with `new`, as assignment does, without destroying the old value
    /// when it holds no heap storage (inline bytes, or nil): it references nothing, so
    /// overwriting it releases nothing that assignment would have released.
    @inlinable @inline(__always)
    public mutating func store(_ new: consuming InlineBytes?) {
        if self?.heap == nil {
            let value = new
            withUnsafeMutablePointer(to: &self) { $0.initialize(to: value) }
        } else {
            self = new
        }
    }
}
