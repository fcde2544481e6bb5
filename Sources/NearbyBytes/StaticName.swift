import NearbySystem

/// A name fixed at compile time (a string literal), for the raw values of open code spaces
/// that hot loops copy: a `DecodeError.Layer`, which every `ByteCursor` carries, and an
/// advertisement's source, which every advertisement carries.
///
/// A `StaticName` is one word with no reference count, so copying or replacing it costs no
/// retain or release: the address of the literal's nul-terminated bytes in the low 48 bits
/// and its length in bytes (0 ..< 32,767, else 32,767 and measured when needed) in bits 48
/// to 62; or, for a literal of one Unicode scalar, which Swift stores without bytes, the
/// scalar tagged in the top bit. It reads like a string: written as a literal, compared and
/// hashed by its text, printed as its text.
public struct StaticName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    @usableFromInline let bits: UInt64
    @inlinable static var scalarTag: UInt64 { 1 << 63 }
    /// Where the length field starts: the address takes the bits below it.
    @inlinable static var lengthShift: UInt64 { 48 }
    /// The length field's value for a text of that many bytes or more.
    @inlinable static var unmeasured: UInt64 { 0x7FFF }

    /// Inlinable: a name written as a literal is a constant where it is used (and so are the
    /// code spaces' named values, which are computed properties).
    @inlinable
    public init(stringLiteral text: StaticString) {
        if text.hasPointerRepresentation {
            let address = UInt64(UInt(bitPattern: text.utf8Start))
            precondition(address >> Self.lengthShift == 0, "a literal's address does not fit in 48 bits")
            bits = address | min(UInt64(text.utf8CodeUnitCount), Self.unmeasured) << Self.lengthShift
        } else {
            bits = Self.scalarTag | UInt64(text.unicodeScalar.value)
        }
    }

    /// The address of the text's nul-terminated bytes (pointer form only).
    @inlinable var address: UnsafePointer<CChar> {
        UnsafePointer(bitPattern: UInt(bits & ((1 << Self.lengthShift) - 1)))!
    }

    /// The length field (pointer form only).
    @inlinable var lengthField: UInt64 { bits >> Self.lengthShift }

    public var description: String {
        if bits & Self.scalarTag != 0 {
            return String(Character(Unicode.Scalar(UInt32(truncatingIfNeeded: bits))!))
        }
        return String(cString: address)
    }

    /// The UTF-8 bytes of the text, lent for the call.
    @inlinable
    package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if bits & Self.scalarTag != 0 {
            var text = description
            return text.withUTF8(body)
        }
        let count = lengthField == Self.unmeasured ? CMemory.length(of: address) : Int(lengthField)
        let utf8 = UnsafeRawPointer(address).assumingMemoryBound(to: UInt8.self)
        return body(UnsafeBufferPointer(start: utf8, count: count))
    }

    @inlinable
    public static func == (a: StaticName, b: StaticName) -> Bool {
        // The same literal is the same bytes in the binary: compared by address first, then
        // two texts by their lengths.
        if a.bits == b.bits { return true }
        if (a.bits | b.bits) & scalarTag == 0 && a.lengthField != b.lengthField { return false }
        return sameText(a, b)
    }

    /// Whether two names at different addresses spell the same text.
    @usableFromInline
    static func sameText(_ a: StaticName, _ b: StaticName) -> Bool {
        guard (a.bits | b.bits) & scalarTag == 0 else {
            return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
        }
        // Two nul-terminated texts: the same literal inlined in two modules is two copies.
        return CMemory.equal(a.address, b.address)
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
