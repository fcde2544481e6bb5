/// Standard base64 (RFC 4648 §4, padded), as the Proximity Beacon API writes attachment data
/// and the replay output writes message content. Decoding is strict: wrong length, bad
/// characters, misplaced padding or non-zero pad bits are rejected, so one byte string has
/// exactly one accepted text.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var it = bytes.makeIterator()
        while let a = it.next() {
            let b = it.next(), c = it.next()
            let n = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(b == nil ? UInt8(ascii: "=") : alphabet[Int(n >> 6 & 63)])
            out.append(c == nil ? UInt8(ascii: "=") : alphabet[Int(n & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let s = Array(text.utf8)
        guard s.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(s.count / 4 * 3)
        var i = 0
        while i < s.count {
            var n: UInt32 = 0
            var pad = 0
            for j in 0..<4 {
                let ch = s[i + j]
                let v: UInt32
                switch ch {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(ch - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(ch - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(ch - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): v = 62
                case UInt8(ascii: "/"): v = 63
                case UInt8(ascii: "="):
                    guard i + 4 == s.count, j >= 2 else { return nil }
                    v = 0
                    pad += 1
                default: return nil
                }
                if pad > 0 && ch != UInt8(ascii: "=") { return nil }
                n = n << 6 | v
            }
            out.append(UInt8(n >> 16 & 0xFF))
            if pad < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
            if pad < 1 { out.append(UInt8(n & 0xFF)) }
            if pad == 1 && n & 0xFF != 0 { return nil }
            if pad == 2 && n & 0xFFFF != 0 { return nil }
            i += 4
        }
        return out
    }
}
