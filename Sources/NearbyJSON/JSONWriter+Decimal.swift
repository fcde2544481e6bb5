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
    public static func writeTwoDigits(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
        let pair = UnsafeRawPointer(decimalPairs.utf8Start + value &* 2)
        UnsafeMutableRawPointer(out).storeBytes(of: pair.loadUnaligned(as: UInt16.self), as: UInt16.self)
    }

    /// Writes `value` in decimal at `out` and returns the number of digits (1…20).
    @inlinable
    public static func writeDecimal(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
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

    /// Appends `value` in decimal.
    @inlinable
    public mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            reserve(1)
            put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        if value < 100 {
            reserve(2)
            Self.writeTwoDigits(Int(truncatingIfNeeded: value), to: base + _count)
            _count &+= 2
            return
        }
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
