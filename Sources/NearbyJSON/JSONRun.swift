/// A run of JSON text written at a pointer into room that `JSONWriter.run` reserved: no
/// bounds checks and no separators of its own. The caller writes keys, colons and commas in
/// its literals (`,"rssi":`), so that an object of a fixed shape is a few stores per member,
/// its keys in order by construction.
///
/// Every method writes what `JSONWriter`'s method of the same name writes for the same
/// value; the caller bounds the run's length (`run(maxLength:_:)`).
public struct JSONRun: ~Copyable {
    /// How a run writes its members' keys.
    public enum Style: Sendable {
        /// As JSON: `,"name":`, the literal as given.
        case json
        /// As the `name=value` text of `decode --format table`: ` name=`.
        case text
    }

    /// Where the next byte goes.
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    public let style: Style

    @inlinable init(_ next: UnsafeMutablePointer<UInt8>, style: Style) {
        self.next = next
        self.style = style
    }

    /// Text fixed when the program was built, verbatim.
    @inlinable @inline(__always)
    public mutating func literal(_ text: StaticString) {
        UnsafeMutableRawPointer(next).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        next += text.utf8CodeUnitCount
    }

    /// A member's key, given as its JSON literal with the colon, and the comma before it
    /// when a member precedes (`,"rssi":`): verbatim in `json` style, as ` rssi=` in `text`.
    @inlinable @inline(__always)
    public mutating func key(_ jsonLiteral: StaticString) {
        guard style == .text else { return literal(jsonLiteral) }
        let start = jsonLiteral.utf8Start
        let skipped = start.pointee == UInt8(ascii: ",") ? 2 : 1
        let name = jsonLiteral.utf8CodeUnitCount &- skipped &- 2
        next.pointee = UInt8(ascii: " ")
        JSONWriter.copyBytes(from: start + skipped, to: next + 1, count: name)
        next[name &+ 1] = UInt8(ascii: "=")
        next += name &+ 2
    }

    /// Bytes that need no escape, verbatim (inside a string whose quotes are in the literals).
    @inlinable @inline(__always)
    package mutating func bytes(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let start = utf8.baseAddress { JSONWriter.copyBytes(from: start, to: next, count: utf8.count) }
        next += utf8.count
    }

    /// A string given as UTF-8, quoted and escaped as `JSONWriter.string(utf8:)` writes it
    /// (at most `JSONWriter.escapedLength(utf8.count)` bytes).
    @inlinable
    package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        next += JSONWriter.writeEscaped(utf8, to: next)
    }

    /// `count` spaces (text outside JSON: padding); nothing when `count` ≤ 0.
    @inlinable @inline(__always)
    public mutating func spaces(_ count: Int) {
        guard count > 0 else { return }
        next.update(repeating: UInt8(ascii: " "), count: count)
        next += count
    }

    /// The bytes that `body` writes at the pointer it is given, returning how many.
    @inlinable @inline(__always)
    package mutating func write(_ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        next += body(next)
    }

    /// An unsigned integer in decimal (at most 20 bytes).
    @inlinable @inline(__always)
    public mutating func integer(_ value: UInt64) {
        next += JSONWriter.writeDecimal(value, to: next)
    }

    /// A signed integer in decimal, `-` before a negative one (at most 20 bytes).
    @inlinable @inline(__always)
    public mutating func integer<T: BinaryInteger>(_ value: T) {
        if value < 0 {
            next.pointee = UInt8(ascii: "-")
            next += 1
        }
        integer(UInt64(truncatingIfNeeded: value.magnitude))
    }

    /// An integer, or `null` when nil (at most 20 bytes).
    @inlinable @inline(__always)
    public mutating func integer<T: BinaryInteger>(_ value: T?) {
        if let value { integer(value) } else { literal("null") }
    }

    /// `true` or `false`.
    @inlinable @inline(__always)
    public mutating func bool(_ value: Bool) {
        if value { literal("true") } else { literal("false") }
    }

    /// Microseconds as seconds with exactly six decimals, as `JSONWriter.seconds(micros:)`
    /// (at most 28 bytes).
    @inlinable @inline(__always)
    public mutating func seconds(micros: Int64) {
        if micros < 0 {
            next.pointee = UInt8(ascii: "-")
            next += 1
        }
        let magnitude = micros.magnitude
        integer(magnitude / 1_000_000)
        let fraction = Int(truncatingIfNeeded: magnitude % 1_000_000)
        next.pointee = UInt8(ascii: ".")
        JSONWriter.writeTwoDigits(fraction / 10_000, to: next + 1)
        JSONWriter.writeTwoDigits(fraction / 100 % 100, to: next + 3)
        JSONWriter.writeTwoDigits(fraction % 100, to: next + 5)
        next += 7
    }
}

extension JSONRun {
    /// `null`.
    @inlinable @inline(__always)
    public mutating func null() { literal("null") }

    /// `numerator` / 2^`fractionBits` (`fractionBits` 0…8), as `JSONWriter.dyadic` (at most
    /// 21 bytes).
    @inlinable
    public mutating func dyadic(_ numerator: Int32, fractionBits: Int) {
        precondition((0...8).contains(fractionBits), "fractionBits \(fractionBits) is not 0…8")
        let magnitude = UInt64(numerator.magnitude)
        if numerator < 0 {
            next.pointee = UInt8(ascii: "-")
            next += 1
        }
        integer(magnitude >> UInt64(fractionBits))
        var rest = magnitude & ((1 << UInt64(fractionBits)) - 1)
        if rest != 0 {
            // rest / 2^k = rest · 5^k / 10^k: k decimals, trailing zeros dropped.
            var digits = fractionBits
            for _ in 0..<fractionBits { rest &*= 5 }
            while rest % 10 == 0 {
                rest /= 10
                digits -= 1
            }
            fraction(rest, digits: digits)
        }
    }

    /// `value` / 10^`decimals` with exactly `decimals` decimals, as `JSONWriter.fixed` (at
    /// most 21 bytes).
    @inlinable
    public mutating func fixed(_ value: Int64, decimals: Int) {
        if value < 0 {
            next.pointee = UInt8(ascii: "-")
            next += 1
        }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        let magnitude = value.magnitude
        integer(magnitude / scale)
        fraction(magnitude % scale, digits: decimals)
    }

    /// `.` and `fraction` (below 10^`digits`) as exactly `digits` decimal digits, with
    /// leading zeros.
    @inlinable
    mutating func fraction(_ fraction: UInt64, digits: Int) {
        next.pointee = UInt8(ascii: ".")
        var rest = fraction
        var i = digits
        while i > 0 {
            next[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            i &-= 1
        }
        next += digits &+ 1
    }

    /// Bytes as a string of lower-case hex digits, two per byte, in quotes (2 × count + 2
    /// bytes).
    @inlinable
    package mutating func hex(_ data: UnsafeBufferPointer<UInt8>) {
        next.pointee = UInt8(ascii: "\"")
        JSONWriter.writeHex(data, to: next + 1)
        next += 2 &* data.count &+ 1
        next.pointee = UInt8(ascii: "\"")
        next += 1
    }

    /// Bytes held contiguously (`ShortBytes`, an array) as `hex(_:)` writes them.
    @inlinable
    public mutating func hex(_ data: some Collection<UInt8>) {
        if data.withContiguousStorageIfAvailable({ hex($0) }) == nil { Array(data).withUnsafeBufferPointer { hex($0) } }
    }
}

extension JSONRun {
    /// `key` (`key(_:)`), then `value`.
    @inlinable @inline(__always)
    public mutating func member<T: BinaryInteger>(_ key: StaticString, _ value: T) {
        self.key(key)
        integer(value)
    }

    /// `key`, then the integer or `null`.
    @inlinable @inline(__always)
    public mutating func member<T: BinaryInteger>(_ key: StaticString, _ value: T?) {
        self.key(key)
        integer(value)
    }

    /// `key`, then `true` or `false`.
    @inlinable @inline(__always)
    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// `key`, then the bytes in hex.
    @inlinable @inline(__always)
    public mutating func member(_ key: StaticString, hex value: some Collection<UInt8>) {
        self.key(key)
        hex(value)
    }
}

extension JSONWriter {
    /// Reserves `maxLength` bytes, lets `body` write a run of at most that many in `style`,
    /// and continues after it; `endsWithValue` says whether the run ended with a value (the next
    /// key or value gets a comma) or with a key's colon or an opening bracket.
    @inlinable @inline(__always)
    package mutating func run(
        maxLength: Int, endsWithValue: Bool, style: JSONRun.Style = .json, _ body: (inout JSONRun) -> Void
    ) {
        reserve(maxLength)
        let start = base + _count
        var run = JSONRun(start, style: style)
        body(&run)
        // A run past its bound has written past the room reserved: stop rather than go on.
        precondition(
            run.next - start <= maxLength, "a JSON run of at most \(maxLength) bytes wrote \(run.next - start)")
        _count = run.next - base
        afterValue = endsWithValue
    }
}
