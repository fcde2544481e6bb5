import NearbySystem

/// A name fixed at compile time (a string literal), for the raw values of open code spaces
/// that hot loops copy: a `DecodeError.Layer`, which every `ByteCursor` carries, and an
/// advertisement's source, which every advertisement carries.
///
/// A `StaticName` is one word with no reference count, so copying or replacing it costs no
/// retain or release (the address of the literal's nul-terminated bytes, or for a literal of one
/// Unicode scalar, which Swift stores without bytes, the scalar tagged in the top bit). It
/// reads like a string: written as a literal, compared and hashed by its text, printed as
/// its text.
public struct StaticName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    @usableFromInline let bits: UInt64
    @inlinable static var scalarTag: UInt64 { 1 << 63 }

    /// Inlinable: a name written as a literal is a constant where it is used (and so are the
    /// code spaces' named values, which are computed properties).
    @inlinable
    public init(stringLiteral text: StaticString) {
        if text.hasPointerRepresentation {
            bits = UInt64(UInt(bitPattern: text.utf8Start))
        } else {
            bits = Self.scalarTag | UInt64(text.unicodeScalar.value)
        }
    }

    public var description: String {
        if bits & Self.scalarTag != 0 {
            return String(Character(Unicode.Scalar(UInt32(truncatingIfNeeded: bits))!))
        }
        return String(cString: UnsafePointer<CChar>(bitPattern: UInt(bits))!)
    }

    /// The UTF-8 bytes of the text, lent for the call.
    package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if bits & Self.scalarTag != 0 {
            var text = description
            return text.withUTF8(body)
        }
        let start = UnsafePointer<CChar>(bitPattern: UInt(bits))!
        let utf8 = UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self)
        return body(UnsafeBufferPointer(start: utf8, count: CMemory.length(of: start)))
    }

    @inlinable
    public static func == (a: StaticName, b: StaticName) -> Bool {
        // The same literal is the same bytes in the binary: compared by address first.
        a.bits == b.bits || sameText(a, b)
    }

    /// Whether two names at different addresses spell the same text.
    @usableFromInline
    static func sameText(_ a: StaticName, _ b: StaticName) -> Bool {
        guard (a.bits | b.bits) & scalarTag == 0 else {
            return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
        }
        // Two nul-terminated texts: the same literal inlined in two modules is two copies.
        return CMemory.equal(
            UnsafePointer<CChar>(bitPattern: UInt(a.bits))!, UnsafePointer<CChar>(bitPattern: UInt(b.bits))!)
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
