extension JSONWriter {
    // MARK: Values

    @inlinable
    public mutating func null() {
        separate()
        append("null")
        afterValue = true
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
        afterValue = true
    }

    /// An integer in decimal, `-` before a negative one.
    @inlinable
    public mutating func integer<T: BinaryInteger>(_ value: T) {
        separate()
        if value < 0 {
            reserve(1)
            put(UInt8(ascii: "-"))
        }
        appendDecimal(UInt64(truncatingIfNeeded: value.magnitude))
        afterValue = true
    }

    /// An integer, or `null` when nil.
    @inlinable
    public mutating func integer<T: BinaryInteger>(_ value: T?) {
        if let value { integer(value) } else { null() }
    }

    /// A number already formatted as JSON (fixed decimals), written verbatim.
    public mutating func number(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { append($0) }
        afterValue = true
    }

    /// A Double: an integral one below 10^15 in magnitude without a fraction (`3`), others as
    /// Swift's shortest round-tripping text (`25.5`, `1e+20`); NaN and infinities as `null`.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if value == value.rounded() && abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            number(String(value))
        }
    }

    /// Microseconds since an origin as seconds with exactly six decimals (`-0.000001`,
    /// `1700000000.123456`).
    @inlinable
    public mutating func seconds(micros: Int64) {
        separate()
        run(maxLength: 32, endsWithValue: true) { $0.seconds(micros: micros) }
    }

    /// `value` / 10^`decimals` with exactly `decimals` decimals (`fixed(36000, decimals: 1)`
    /// is `3600.0`); `decimals` 1…18.
    @inlinable
    public mutating func fixed(_ value: Int64, decimals: Int) {
        separate()
        run(maxLength: decimals + 24, endsWithValue: true) { $0.fixed(value, decimals: decimals) }
    }

    /// A string, escaped.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(utf8: $0) }
    }

    /// A string given as UTF-8 bytes, escaped.
    package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        appendEscaped(utf8)
        afterValue = true
    }

    /// A string of at most `maxLength` bytes that `body` writes at the pointer it is given,
    /// returning how many: ASCII that needs no escape (no `"`, `\\` or control character),
    /// such as an address or a UUID.
    @inlinable
    package mutating func unescapedString(maxLength: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        separate()
        reserve(1)
        put(UInt8(ascii: "\""))
        append(maxLength: maxLength, body)
        reserve(1)
        put(UInt8(ascii: "\""))
        afterValue = true
    }

    /// Appends at most `maxLength` bytes that `body` writes at the pointer it is given,
    /// returning how many (text outside JSON, or inside a string that needs no escape).
    @inlinable
    package mutating func append(maxLength: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maxLength)
        _count &+= body(base + _count)
    }

    /// Bytes as a string of lower-case hex digits, two per byte.
    @inlinable
    public mutating func hex(_ data: some Collection<UInt8>) {
        if data.withContiguousStorageIfAvailable({ hex($0) }) == nil { hex(Array(data)) }
    }

    /// Bytes as a string of lower-case hex digits, two per byte.
    @usableFromInline package mutating func hex(_ data: UnsafeBufferPointer<UInt8>) {
        separate()
        run(maxLength: 2 &* data.count &+ 2, endsWithValue: true) { $0.hex(data) }
    }

    /// Writes the lower-case hex digits of `data`, two per byte, at `out` (2 × count bytes).
    @inlinable
    package static func writeHex(_ data: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) {
        guard let source = data.baseAddress else { return }
        let n = data.count
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(out)
        var i = 0
        while i &+ 4 <= n {
            let word = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            to.storeBytes(of: hexDigits(word).littleEndian, toByteOffset: i &* 2, as: UInt64.self)
            i &+= 4
        }
        while i < n {
            writeHex(source[i], to: out + i &* 2)
            i &+= 1
        }
    }

    /// The eight lower-case hex digits of four bytes (the first in the low bits of `word`),
    /// as the bytes of an integer, the first digit in the low byte.
    @inlinable
    static func hexDigits(_ word: UInt32) -> UInt64 {
        // Byte k of the word moves to byte 2k, then its high nibble stays there and its low
        // nibble goes to byte 2k + 1; a nibble of 10 or more becomes a letter.
        var x = UInt64(word)
        x = (x | x &<< 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x &<< 8) & 0x00FF_00FF_00FF_00FF
        let nibbles = (x &>> 4) & 0x000F_000F_000F_000F | (x & 0x000F_000F_000F_000F) &<< 8
        let letters = ((nibbles &+ 0x7676_7676_7676_7676) &>> 7) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    /// A string whose UTF-8 bytes need no escapes (no `"`, `\\` or control character).
    @inlinable
    package mutating func plain(_ utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        let n = utf8.count
        reserve(n &+ 2)
        put(UInt8(ascii: "\""))
        if let start = utf8.baseAddress { copy(start, count: n) }
        put(UInt8(ascii: "\""))
        afterValue = true
    }

    /// A string escaped once (`EscapedString`), for text written on many lines.
    public mutating func string(_ value: EscapedString) {
        separate()
        value.json.withUnsafeBufferPointer { append($0) }
        afterValue = true
    }

    /// A value tree, object keys sorted by their UTF-8 bytes.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .integer(let i): integer(i)
        case .number(let s): number(s)
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let fields):
            beginObject()
            for key in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                escapedKey(key)
                self.value(fields[key]!)
            }
            endObject()
        }
    }

    /// Text outside JSON (a table line, a header), appended as UTF-8 without escapes.
    public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { append($0) }
    }

    // MARK: Members: a key and its value

    @inlinable
    public mutating func member<T: BinaryInteger>(_ key: StaticString, _ value: T) {
        self.key(key)
        integer(value)
    }

    /// The integer, or `null` when nil.
    @inlinable
    public mutating func member<T: BinaryInteger>(_ key: StaticString, _ value: T?) {
        self.key(key)
        integer(value)
    }

    @inlinable
    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// A string known when the program was built that needs no escapes (a name from a
    /// fixed set: no `"`, `\\` or control character).
    @inlinable
    public mutating func member(_ key: StaticString, plain value: StaticString) {
        self.key(key)
        plain(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    /// `plain` when there is one, else `fallback` escaped.
    @inlinable
    public mutating func member(
        _ key: StaticString, plain value: StaticString?, else fallback: @autoclosure () -> String
    ) {
        if let value { member(key, plain: value) } else { member(key, string: fallback()) }
    }

    public mutating func member(_ key: StaticString, string value: String) {
        self.key(key)
        string(value)
    }

    @inlinable
    public mutating func member(_ key: StaticString, hex value: some Collection<UInt8>) {
        self.key(key)
        hex(value)
    }
}
