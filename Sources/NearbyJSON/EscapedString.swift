/// A string with its JSON escapes applied and its quotes added, once, for text that many
/// lines repeat (the file name of every advertisement of a capture).
public struct EscapedString: Sendable {
    /// The JSON text, quotes included.
    public let json: [UInt8]

    public init(_ text: String) {
        var w = JSONWriter(capacity: text.utf8.count + 16)
        w.string(text)
        json = w.bytes
    }
}
