/// A string compared and hashed by its UTF-8 code units: how the engine keys ids, namespaces
/// and types (ENGINE-R4, ENGINE-V1). Swift's `String ==` compares by canonical
/// equivalence, which would make "café" (U+00E9) and "cafe\u{301}" one id or one namespace;
/// the GNS API, like Java's `String.equals`, tells them apart.
public struct ExactString: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let string: String

    public init(_ string: String) { self.string = string }

    public static func == (a: ExactString, b: ExactString) -> Bool { a.string.utf8.elementsEqual(b.string.utf8) }

    public func hash(into hasher: inout Hasher) { Message.hashUTF8(string, into: &hasher) }

    /// By UTF-8 bytes (the order of ids among events at one instant, ENGINE-O3).
    public static func < (a: ExactString, b: ExactString) -> Bool {
        a.string.utf8.lexicographicallyPrecedes(b.string.utf8)
    }

    public var isEmpty: Bool { string.isEmpty }
    public var description: String { string }
}
