/// A name fixed at compile time (a string literal), for the raw values of open code spaces
/// that hot loops copy: a `DecodeError.Layer`, which every `ByteCursor` carries, and an
/// advertisement's source, which every advertisement carries.
///
/// A `String` raw value costs a retain and a release each time such a value is copied or
/// replaced, millions of times per capture; a `StaticName` is two words with no reference
/// count. It reads like a string: written as a literal, compared and hashed by its text,
/// printed as its text.
public struct StaticName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let text: StaticString

    public init(stringLiteral text: StaticString) { self.text = text }

    public var description: String { text.description }

    public static func == (a: StaticName, b: StaticName) -> Bool {
        // The same literal is the same bytes in the binary: compared by address first.
        a.text.withUTF8Buffer { x in
            b.text.withUTF8Buffer { y in
                x.count == y.count && (x.baseAddress == y.baseAddress || x.elementsEqual(y))
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        text.withUTF8Buffer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
