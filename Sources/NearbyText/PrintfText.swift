import NearbySystem

/// Text formatted by the C library's `vsnprintf`: what `String(format:)` gives for the
/// numeric conversions this package uses (`%d`, `%02x`, `%.6f`, `%11.6f`…), without
/// Foundation. Not for `%@` or
/// `%s` with Swift strings.
public enum PrintfText {
    /// `format` with `arguments`, as C's `printf` writes it.
    public static func format(_ format: String, _ arguments: any CVarArg...) -> String {
        CFormat.text(format, arguments)
    }

    /// `text` followed by spaces up to `width` characters, or its first `width` characters
    /// when it is longer (what `padding(toLength:withPad: " ", startingAt: 0)` gives).
    public static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
