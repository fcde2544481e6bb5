extension JSONWriter {
    /// The number of decimal digits of `value` (1…20).
    @inlinable
    public static func decimalDigits(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10_000 {
            rest /= 10_000
            digits &+= 4
        }
        if rest >= 100 {
            rest /= 100
            digits &+= 2
        }
        return rest >= 10 ? digits &+ 1 : digits
    }

    /// `00`, `01`, … `99`: the two decimal digits of every number below 100, in order
    /// (200 bytes).
    @inlinable
    static var decimalPairs: StaticString {
        """
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Writes the two decimal digits of `value` (0…99) at `out` and `out + 1`.
    @inlinable
    package static func writeTwoDigits(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
        let pair = UnsafeRawPointer(decimalPairs.utf8Start + value &* 2)
        UnsafeMutableRawPointer(out).storeBytes(of: pair.loadUnaligned(as: UInt16.self), as: UInt16.self)
    }

    /// Writes `value` in decimal at `out` and returns the number of digits (1…20).
    @inlinable
    package static func writeDecimal(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Below 10^16 (every count and time the tool writes), in chunks of 8 and 4 digits
        // whose pairs are independent 32-bit divisions, the leading chunk without zeros.
        if value < 10_000 { return writeLeading(UInt32(truncatingIfNeeded: value), to: out) }
        if value < 100_000_000 {
            let n = writeLeading(UInt32(truncatingIfNeeded: value / 10_000), to: out)
            writeFour(UInt32(truncatingIfNeeded: value % 10_000), to: out + n)
            return n &+ 4
        }
        if value < 10_000_000_000_000_000 {
            let n = writeDecimal(value / 100_000_000, to: out)
            let low = UInt32(truncatingIfNeeded: value % 100_000_000)
            writeFour(low / 10_000, to: out + n)
            writeFour(low % 10_000, to: out + (n &+ 4))
            return n &+ 8
        }
        let n = decimalDigits(value)
        // Digits are written from the last, two at a time.
        var i = n
        var rest = value
        while rest >= 100 {
            i &-= 2
            writeTwoDigits(Int(truncatingIfNeeded: rest % 100), to: out + i)
            rest /= 100
        }
        if rest >= 10 {
            writeTwoDigits(Int(truncatingIfNeeded: rest), to: out + (i &- 2))
        } else {
            out[i &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        return n
    }

    /// Writes `value` (0…9999) with no leading zero and returns the number of digits.
    @inlinable @inline(__always)
    static func writeLeading(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            out.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        if value < 100 {
            writeTwoDigits(Int(truncatingIfNeeded: value), to: out)
            return 2
        }
        if value < 1_000 {
            out.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 100)
            writeTwoDigits(Int(truncatingIfNeeded: value % 100), to: out + 1)
            return 3
        }
        writeFour(value, to: out)
        return 4
    }

    /// Writes `value` (0…9999) as exactly four digits.
    @inlinable @inline(__always)
    static func writeFour(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) {
        writeTwoDigits(Int(truncatingIfNeeded: value / 100), to: out)
        writeTwoDigits(Int(truncatingIfNeeded: value % 100), to: out + 2)
    }

    /// Appends `value` in decimal.
    @inlinable
    public mutating func appendDecimal(_ value: UInt64) {
        reserve(20)
        _count &+= Self.writeDecimal(value, to: base + _count)
    }
}

extension JSONWriter {
    /// `numerator` / 2^`fractionBits` (`fractionBits` 0…8), exactly, as `double` writes the
    /// same value: an integral value without a fraction (`-3`), others with the decimals the
    /// value has and no trailing zero (`21.5`, `-0.00390625`). A fixed-point reading such as
    /// a signed 8.8 temperature is written without going through `Double` and its text.
    @inlinable
    public mutating func dyadic(_ numerator: Int32, fractionBits: Int) {
        separate()
        run(maxLength: 24, endsWithValue: true) { $0.dyadic(numerator, fractionBits: fractionBits) }
    }
}
