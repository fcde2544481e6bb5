/// A 48-bit Bluetooth device address (Core Vol 6 Part B §1.3).
///
/// `rawValue` holds the address with its most significant byte in bits 40–47, the way
/// people write it (`c0:ff:ee:00:00:01`); on air and in HCI it is stored least
/// significant byte first.
public struct BluetoothAddress: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// Parses `aa:bb:cc:dd:ee:ff` (either case, `:` or `-`).
    public init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        self.init(rawValue: value)
    }

    /// Lower-case `aa:bb:cc:dd:ee:ff`.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(17)
        for i in (0..<6).reversed() {
            let b = UInt8(truncatingIfNeeded: rawValue >> (UInt64(i) * 8))
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
            if i > 0 { out.append(UInt8(ascii: ":")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The address in the little-endian byte order of HCI and the link layer.
    public var littleEndianBytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> (UInt64($0) * 8)) }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The address type of an advertiser, as HCI reports it (HCI-ADV-12, HCI-EXT-15) or as the
/// link layer's TxAdd bit gives it (0 public, 1 random: LL-8).
/// An open code space: unknown values survive with their number.
public struct AddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `public` = AddressType(rawValue: 0x00)
    public static let random = AddressType(rawValue: 0x01)
    /// A public identity address, after the controller resolved an RPA.
    public static let publicIdentity = AddressType(rawValue: 0x02)
    /// A static random identity address, after the controller resolved an RPA.
    public static let randomIdentity = AddressType(rawValue: 0x03)
    /// No address was sent (anonymous extended advertising), extended reports only.
    public static let anonymous = AddressType(rawValue: 0xFF)

    /// `public`, `random`, `public-identity`, `random-identity`, `anonymous`, or `0xNN`.
    public var description: String { name?.description ?? "0x" + String(rawValue, radix: 16) }

    /// The description of a defined value, nil for the others.
    public var name: StaticString? {
        switch rawValue {
        case 0x00: "public"
        case 0x01: "random"
        case 0x02: "public-identity"
        case 0x03: "random-identity"
        case 0xFF: "anonymous"
        default: nil
        }
    }
}
