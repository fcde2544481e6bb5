/// Text from outside (an implementation's replies and handshake, file names) made safe to
/// print on a terminal: control characters, which could erase or recolour the report or
/// forge lines of it, are shown as escapes instead.
public enum TerminalText {
    /// `text` with C0 controls (tab excepted), DEL and C1 controls written as `\u{XX}`
    /// (hexadecimal), and the backslash of a `\u{` already in the text doubled, so that an
    /// escape cannot be faked. One line in, one line out.
    public static func escaped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func startsEscape(_ i: Int) -> Bool {
            scalars[i] == "\\" && i + 2 < scalars.count && scalars[i + 1] == "u" && scalars[i + 2] == "{"
        }
        guard scalars.indices.contains(where: { needsEscape(scalars[$0]) || startsEscape($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for i in scalars.indices {
            let u = scalars[i]
            if needsEscape(u) {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                if startsEscape(i) { out.append("\\") }
                out.append(u)
            }
        }
        return String(out)
    }

    static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        (u.value < 0x20 && u != "\t") || (0x7F...0x9F).contains(u.value)
    }
}
