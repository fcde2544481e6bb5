/// Compact JSON text (RFC 8259) appended to one reusable byte buffer: how every output line
/// and report of the tool is written. No insignificant white space; strings escape `"`, `\`
/// and the control characters U+0000…U+001F (`\n`, `\r`, `\t` by name, the others as
/// `\u00XX`, lower-case hex) and pass every other character through as UTF-8.
///
/// Members are written in the order the caller gives them: callers give object keys sorted
/// by their UTF-8 bytes, so the text equals what `JSONValue.serialized` writes for the same
/// object. Commas come from the writer: a value or key after a value gets one.
///
/// The buffer holds any number of lines; a caller hands `bytes` on (to a file, a pipe) when
/// it has grown large and calls `removeAll()`, keeping the capacity.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    public var count: Int { _count }
    @usableFromInline var _count = 0
    @usableFromInline var capacity: Int
    /// Whether the next key or value follows a value at the same level (and needs a comma).
    @usableFromInline var afterValue = false

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The text written so far, UTF-8, lent for the call.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: _count))
    }

    /// A copy of the text written so far.
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Forgets the text written, keeping the buffer's capacity.
    public mutating func removeAll() {
        _count = 0
        afterValue = false
    }

    /// Makes room for `n` more bytes.
    @inlinable
    mutating func reserve(_ n: Int) {
        if _count &+ n > capacity { grow(n) }
    }

    @usableFromInline
    mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, _count + n)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        new.update(from: base, count: _count)
        base.deallocate()
        base = new
        capacity = newCapacity
    }

    /// Appends one byte; room must have been reserved.
    @inlinable
    mutating func put(_ byte: UInt8) {
        base[_count] = byte
        _count &+= 1
    }

    /// Appends raw bytes (text outside JSON, or JSON already written).
    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { copy(source, count: bytes.count) }
    }

    /// Appends `byte` `n` times (padding); nothing when `n` ≤ 0.
    @inlinable
    public mutating func append(_ byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(max(n, 16))
        if n <= 16 {
            // Sixteen bytes are stored whatever `n` is; only `n` of them are kept.
            let word = UInt64(byte) &* 0x0101_0101_0101_0101
            let to = UnsafeMutableRawPointer(base + _count)
            to.storeBytes(of: word, as: UInt64.self)
            to.storeBytes(of: word, toByteOffset: 8, as: UInt64.self)
        } else {
            (base + _count).update(repeating: byte, count: n)
        }
        _count &+= n
    }

    // MARK: Structure

    @inlinable
    mutating func separate() {
        reserve(1)
        if afterValue { put(UInt8(ascii: ",")) }
    }

    /// Opens an object or array with `bracket`, after a comma when a value precedes it.
    @inlinable
    mutating func open(_ bracket: UInt8) {
        reserve(2)
        if afterValue { put(UInt8(ascii: ",")) }
        put(bracket)
        afterValue = false
    }

    /// Closes an object or array with `bracket`; what follows is separated from it.
    @inlinable
    mutating func close(_ bracket: UInt8) {
        reserve(1)
        put(bracket)
        afterValue = true
    }

    @inlinable
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    @inlinable
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    @inlinable
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    @inlinable
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// An object key that needs no escapes (the tool's own keys: ASCII letters and digits).
    @inlinable @inline(__always)
    public mutating func key(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        reserve(n + 4)
        if afterValue { put(UInt8(ascii: ",")) }
        put(UInt8(ascii: "\""))
        copy(name.utf8Start, count: n)
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        afterValue = false
    }

    /// An object key of any text, escaped as strings are.
    public mutating func escapedKey(_ name: String) {
        string(name)
        reserve(1)
        put(UInt8(ascii: ":"))
        afterValue = false
    }

    /// Ends a line: a line feed, and the next value starts a new top-level text.
    @inlinable
    public mutating func newline() {
        reserve(1)
        put(UInt8(ascii: "\n"))
        afterValue = false
    }

    // MARK: Bytes

    /// The lower-case hex digit of `nibble` (0…15).
    @inlinable
    public static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &- 10 &+ nibble
    }

    /// `00`, `01`, … `ff`: the two lower-case hex digits of every byte, in order (512 bytes).
    @inlinable
    static var hexPairs: StaticString {
        """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
        202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
        404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
        808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f\
        a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\
        e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """
    }

    /// Writes the two lower-case hex digits of `byte` at `out` and `out + 1`.
    @inlinable
    package static func writeHex(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) {
        let pair = UnsafeRawPointer(hexPairs.utf8Start + Int(byte) &* 2)
        UnsafeMutableRawPointer(out).storeBytes(of: pair.loadUnaligned(as: UInt16.self), as: UInt16.self)
    }

    /// Copies `n` bytes from `source` behind the text; room must have been reserved.
    @inlinable @inline(__always)
    mutating func copy(_ source: UnsafePointer<UInt8>, count n: Int) {
        Self.copyBytes(from: source, to: base + _count, count: n)
        _count &+= n
    }

    /// Copies `n` bytes from `from` to `to`; the two may overlap, as with `memmove`. Up to 64
    /// bytes (keys, names, file paths) are copied with at most four overlapping loads of 16
    /// bytes, or two of 8 or 4, or three single bytes, all made before the first store;
    /// longer runs with `memmove`.
    @inlinable @inline(__always)
    package static func copyBytes(from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count n: Int) {
        let from = UnsafeRawPointer(from), to = UnsafeMutableRawPointer(to)
        func load<T: BitwiseCopyable>(_: T.Type, _ offset: Int) -> T {
            from.loadUnaligned(fromByteOffset: offset, as: T.self)
        }
        func store<T: BitwiseCopyable>(_ value: T, _ offset: Int) {
            to.storeBytes(of: value, toByteOffset: offset, as: T.self)
        }
        typealias Block = SIMD16<UInt8>
        if n > 64 {
            to.copyMemory(from: from, byteCount: n)
        } else if n > 32 {
            let (a, b) = (load(Block.self, 0), load(Block.self, 16))
            let (c, d) = (load(Block.self, n &- 32), load(Block.self, n &- 16))
            store(a, 0)
            store(b, 16)
            store(c, n &- 32)
            store(d, n &- 16)
        } else if n > 16 {
            let (a, b) = (load(Block.self, 0), load(Block.self, n &- 16))
            store(a, 0)
            store(b, n &- 16)
        } else if n >= 8 {
            let (a, b) = (load(UInt64.self, 0), load(UInt64.self, n &- 8))
            store(a, 0)
            store(b, n &- 8)
        } else if n >= 4 {
            let (a, b) = (load(UInt32.self, 0), load(UInt32.self, n &- 4))
            store(a, 0)
            store(b, n &- 4)
        } else if n > 0 {
            let (a, b, c) = (load(UInt8.self, 0), load(UInt8.self, n / 2), load(UInt8.self, n &- 1))
            store(a, 0)
            store(b, n / 2)
            store(c, n &- 1)
        }
    }

    /// Appends text fixed when the program was built, verbatim (no escapes).
    @inlinable
    public mutating func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        copy(s.utf8Start, count: n)
    }

    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(Self.escapedLength(utf8.count))
        _count &+= Self.writeEscaped(utf8, to: base + _count)
    }

    /// The most `writeEscaped` writes for `count` bytes: each as `\u00XX`, and the quotes.
    @inlinable
    public static func escapedLength(_ count: Int) -> Int { 6 &* count &+ 2 }

    /// Writes `utf8` as a JSON string at `out`: quoted, `"` and `\` escaped, `\n`, `\r`
    /// and `\t` as such and the other control characters as `\u00XX`; returns how many
    /// bytes (at most `escapedLength(utf8.count)`).
    @usableFromInline package static func writeEscaped(
        _ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        out.pointee = UInt8(ascii: "\"")
        var n = 1
        var runStart = 0
        func copyRun(to end: Int) {
            guard end > runStart, let source = utf8.baseAddress else { return }
            copyBytes(from: source + runStart, to: out + n, count: end &- runStart)
            n &+= end &- runStart
        }
        for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        {
            copyRun(to: i)
            runStart = i &+ 1
            out[n] = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[n &+ 1] = byte
            case UInt8(ascii: "\n"): out[n &+ 1] = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): out[n &+ 1] = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): out[n &+ 1] = UInt8(ascii: "t")
            default:
                out[n &+ 1] = UInt8(ascii: "u")
                out[n &+ 2] = UInt8(ascii: "0")
                out[n &+ 3] = UInt8(ascii: "0")
                out[n &+ 4] = hexDigit(byte >> 4)
                out[n &+ 5] = hexDigit(byte & 0xF)
                n &+= 4
            }
            n &+= 2
        }
        copyRun(to: utf8.count)
        out[n] = UInt8(ascii: "\"")
        return n &+ 1
    }
}
