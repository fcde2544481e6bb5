/// Lower-case hexadecimal text for bytes, and bytes from hexadecimal text.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `bytes` as lower-case hex, two digits a byte, no separators.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes from hex digits; spaces, tabs, colons and dashes between digit pairs are
    /// ignored. Returns nil for any other character or an odd number of digits.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                if high != nil { return nil }
                continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return high == nil ? out : nil
    }

    /// `value` as `0x` and `digits` hex digits, for open code spaces shown to people.
    public static func code<T: BinaryInteger>(_ value: T, digits: Int) -> String {
        let s = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
