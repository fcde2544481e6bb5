/// Text for XML and HTML documents (the JUnit report, the timeline report).
public enum MarkupText {
    /// `text` escaped for element text and quoted attribute values alike (`&`, `<`, `>`, `"`,
    /// `'`); characters XML 1.0 cannot carry (controls other than tab, line feed and carriage
    /// return; U+FFFE, U+FFFF) become U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for u in text.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || (0xFFFE...0xFFFF).contains(u.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }
}
