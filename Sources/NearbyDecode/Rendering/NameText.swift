/// The UTF-8 of a code's name: the literal when the specification names the value, else the
/// text made for it (`0x42`, `reserved-0x09`: ASCII letters, digits and `-`, which JSON
/// strings and table columns hold as they are).
public enum NameText {
    /// Calls `body` with the bytes of `name`, or of `fallback()` when there is none.
    @inline(__always)
    package static func withUTF8<R>(
        _ name: StaticString?, else fallback: @autoclosure () -> String, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        if let name { return body(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) }
        var text = fallback()
        return text.withUTF8(body)
    }
}
