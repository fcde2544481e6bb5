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
        let n = Self.decimalDigits(value)
        reserve(n)
        // Digits are written from the last, two at a time.
        var i = _count &+ n
        var rest = value
        while rest >= 100 {
            i &-= 2
            Self.writeTwoDigits(Int(truncatingIfNeeded: rest % 100), to: base + i)
            rest /= 100
        }
        if rest >= 10 {
            Self.writeTwoDigits(Int(truncatingIfNeeded: rest), to: base + (i &- 2))
        } else {
            base[i &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        _count &+= n
    }
}

extension JSONWriter {
    /// `numerator` / 2^`fractionBits` (`fractionBits` 0…8), exactly, as `double` writes the
    /// same value: an integral value without a fraction (`-3`), others with the decimals the
    /// value has and no trailing zero (`21.5`, `-0.00390625`). A fixed-point reading such as
    /// a signed 8.8 temperature is written without going through `Double` and its text.
    @inlinable
    public mutating func dyadic(_ numerator: Int32, fractionBits: Int) {
        precondition((0...8).contains(fractionBits), "fractionBits \(fractionBits) is not 0…8")
        separate()
        let magnitude = UInt64(numerator.magnitude)
        if numerator < 0 {
            reserve(1)
            put(UInt8(ascii: "-"))
        }
        appendDecimal(magnitude >> UInt64(fractionBits))
        var fraction = magnitude & ((1 << UInt64(fractionBits)) - 1)
        if fraction != 0 {
            // fraction / 2^k = fraction · 5^k / 10^k: k decimals, trailing zeros dropped.
            var digits = fractionBits
            for _ in 0..<fractionBits { fraction &*= 5 }
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            appendFraction(fraction, digits: digits)
        }
        afterValue = true
    }

    /// Appends `.` and `fraction` (below 10^`digits`) as exactly `digits` decimal digits,
    /// with leading zeros.
    @inlinable
    mutating func appendFraction(_ fraction: UInt64, digits: Int) {
        reserve(digits + 1)
        put(UInt8(ascii: "."))
        var rest = fraction
        var i = _count &+ digits
        while i > _count {
            i &-= 1
            base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        _count &+= digits
    }
}
