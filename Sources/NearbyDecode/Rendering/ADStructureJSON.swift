import NearbyFormats
import NearbyJSON

/// The `ad` member of a `decode` line: every AD structure of the advertisement, in order, as
/// nRF Connect lists them (docs/decode-output.md, "AD structures"). Each entry has `adType`
/// (the AD type, 0–255) and `type` (its name below), and the fields of that type:
///
/// | `type` | AD type | fields |
/// |---|---|---|
/// | `flags` | 0x01 | `flags` (the octet) |
/// | `uuid16-incomplete`, `uuid16-complete` | 0x02, 0x03 | `uuids` (4 hex digits each), `names` (or null each) |
/// | `uuid32-incomplete`, `uuid32-complete` | 0x04, 0x05 | `uuids` (8 hex digits each) |
/// | `uuid128-incomplete`, `uuid128-complete` | 0x06, 0x07 | `uuids` (8-4-4-4-12) |
/// | `name-shortened`, `name-complete` | 0x08, 0x09 | `name` (invalid UTF-8 as U+FFFD, with `data`) |
/// | `tx-power` | 0x0A | `txPower` (dBm) |
/// | `service-data-16` | 0x16 | `uuid`, `uuidName` (when assigned), `data` (after the UUID) |
/// | `service-data-32`, `service-data-128` | 0x20, 0x21 | `uuid`, `data` |
/// | `appearance` | 0x19 | `appearance`, `appearanceName` (when assigned) |
/// | `manufacturer-data` | 0xFF | `company`, `companyName` (when assigned), `data` (after the company) |
/// | `other` | any other | `adTypeName` (when assigned), `data` |
///
/// UUIDs and company identifiers are read least significant octet first (AD-8, AD-9) and
/// written most significant first, as the SIG writes them. A structure too short for its
/// type's fields is written with `data` alone; the walk stops at a length octet of 0 (AD-2)
/// and at a structure that overruns the data (AD-3, which `errors` reports).
public enum ADStructureJSON {
    /// Writes the `ad` member's value: an array of the structures of `data`.
    package static func write(_ data: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        w.run(maxLength: bound(data), endsWithValue: true) { r in
            r.literal("[")
            var first = true
            ADStructureWalk.forEach(in: data) { type, payload in
                r.literal(first ? #"{"adType":"# : #",{"adType":"#)
                first = false
                r.integer(type)
                entry(type, payload, to: &r)
                r.literal("}")
            }
            r.literal("]")
        }
    }

    /// Writes one structure's entry, `{"adType":N,…}`, as a value of `w`.
    package static func writeEntry(_ type: UInt8, _ payload: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        w.run(maxLength: bound(payload), endsWithValue: true) { r in
            r.literal(#"{"adType":"#)
            r.integer(type)
            entry(type, payload, to: &r)
            r.literal("}")
        }
    }

    /// The most the entries of `data` write: under 128 bytes and a name per structure (of at
    /// least two octets), and per octet at most 6 (an escaped name), 2 (hex), 2.5 (a 128-bit
    /// UUID) or half a name and 8 (a 16-bit UUID with its name).
    static func bound(_ data: UnsafeBufferPointer<UInt8>) -> Int {
        192 + data.count * (Names.longest + 72)
    }

    /// The members after `adType` (each with its comma), keys in order.
    static func entry(_ type: UInt8, _ p: UnsafeBufferPointer<UInt8>, to r: inout JSONRun) {
        switch type {
        case 0x01 where p.count == 1:
            r.member(#","flags":"#, p[0])
            r.literal(#","type":"flags""#)
        case 0x02, 0x03:
            guard p.count % 2 == 0 else { return raw(type, p, to: &r) }
            r.key(#","names":"#)
            r.literal("[")
            for i in stride(from: 0, to: p.count, by: 2) {
                if i > 0 { r.literal(",") }
                Names.uuids16.withName(UInt16(p[i]) | UInt16(p[i + 1]) << 8) { name in
                    if let name { r.bytes(name) } else { r.literal("null") }
                }
            }
            r.literal("]")
            typeMember(type, to: &r)
            uuids(p, width: 2, to: &r)
        case 0x04, 0x05, 0x06, 0x07:
            let width = type <= 0x05 ? 4 : 16
            guard p.count % width == 0 else { return raw(type, p, to: &r) }
            typeMember(type, to: &r)
            uuids(p, width: width, to: &r)
        case 0x08, 0x09:
            // Text from the air: invalid UTF-8 is shown with U+FFFD (3 bytes for 1) and its
            // bytes given too. ASCII is valid UTF-8.
            if p.allSatisfy({ $0 < 0x80 }) || String(validating: p, as: UTF8.self) != nil {
                r.key(#","name":"#)
                r.string(utf8: p)
            } else {
                r.member(#","data":"#, hex: p)
                r.key(#","name":"#)
                var text = String(decoding: p, as: UTF8.self)
                text.withUTF8 { r.string(utf8: $0) }
            }
            typeMember(type, to: &r)
        case 0x0A where p.count == 1:
            r.member(#","txPower":"#, Int8(bitPattern: p[0]))
            r.literal(#","type":"tx-power""#)
        case 0x16 where p.count >= 2:
            let uuid = UInt16(p[0]) | UInt16(p[1]) << 8
            r.key(#","data":"#)
            r.hex(UnsafeBufferPointer(rebasing: p[2...]))
            r.literal(#","type":"service-data-16""#)
            r.key(#","uuid":"#)
            self.uuid(UnsafeBufferPointer(rebasing: p[..<2]), to: &r)
            Names.uuids16.withName(uuid) { name in
                guard let name else { return }
                r.key(#","uuidName":"#)
                r.bytes(name)
            }
        case 0x20 where p.count >= 4, 0x21 where p.count >= 16:
            let width = type == 0x20 ? 4 : 16
            r.key(#","data":"#)
            r.hex(UnsafeBufferPointer(rebasing: p[width...]))
            typeMember(type, to: &r)
            r.key(#","uuid":"#)
            uuid(UnsafeBufferPointer(rebasing: p[..<width]), to: &r)
        case 0x19 where p.count == 2:
            let value = UInt16(p[0]) | UInt16(p[1]) << 8
            r.member(#","appearance":"#, value)
            Names.appearances.withName(value) { name in
                guard let name else { return }
                r.key(#","appearanceName":"#)
                r.bytes(name)
            }
            r.literal(#","type":"appearance""#)
        case 0xFF where p.count >= 2:
            let company = UInt16(p[0]) | UInt16(p[1]) << 8
            r.member(#","company":"#, company)
            Names.companies.withName(company) { name in
                guard let name else { return }
                r.key(#","companyName":"#)
                r.bytes(name)
            }
            r.key(#","data":"#)
            r.hex(UnsafeBufferPointer(rebasing: p[2...]))
            r.literal(#","type":"manufacturer-data""#)
        default:
            raw(type, p, to: &r)
        }
    }

    /// `adTypeName` (an `other` entry's, when assigned), `data` and `type`.
    static func raw(_ type: UInt8, _ p: UnsafeBufferPointer<UInt8>, to r: inout JSONRun) {
        if ownTypeName(type) == nil {
            Names.adTypes.withName(UInt16(type)) { name in
                guard let name else { return }
                r.key(#","adTypeName":"#)
                r.bytes(name)
            }
        }
        r.key(#","data":"#)
        r.hex(p)
        typeMember(type, to: &r)
    }

    /// `,"type":"NAME"`.
    static func typeMember(_ type: UInt8, to r: inout JSONRun) {
        r.literal(#","type":""#)
        r.literal(typeName(type))
        r.literal(#"""#)
    }

    /// The `type` name of an AD type (`other` for the types without fields of their own).
    public static func typeName(_ type: UInt8) -> StaticString { ownTypeName(type) ?? "other" }

    /// The `type` name of an AD type with fields of its own, or nil.
    static func ownTypeName(_ type: UInt8) -> StaticString? {
        switch type {
        case 0x01: "flags"
        case 0x02: "uuid16-incomplete"
        case 0x03: "uuid16-complete"
        case 0x04: "uuid32-incomplete"
        case 0x05: "uuid32-complete"
        case 0x06: "uuid128-incomplete"
        case 0x07: "uuid128-complete"
        case 0x08: "name-shortened"
        case 0x09: "name-complete"
        case 0x0A: "tx-power"
        case 0x16: "service-data-16"
        case 0x19: "appearance"
        case 0x20: "service-data-32"
        case 0x21: "service-data-128"
        case 0xFF: "manufacturer-data"
        default: nil
        }
    }

    /// `uuids`: the UUIDs of a list, each `width` octets, least significant first.
    static func uuids(_ p: UnsafeBufferPointer<UInt8>, width: Int, to r: inout JSONRun) {
        r.key(#","uuids":"#)
        r.literal("[")
        for i in stride(from: 0, to: p.count, by: width) {
            if i > 0 { r.literal(",") }
            uuid(UnsafeBufferPointer(rebasing: p[i..<(i + width)]), to: &r)
        }
        r.literal("]")
    }

    /// One UUID of 2, 4 or 16 octets sent least significant first, quoted: hex digits, most
    /// significant first; 16 octets in the 8-4-4-4-12 form, lower case.
    static func uuid(_ octets: UnsafeBufferPointer<UInt8>, to r: inout JSONRun) {
        r.write { out in
            out[0] = UInt8(ascii: "\"")
            var n = 1
            var k = 0
            var i = octets.count - 1
            while i >= 0 {
                if octets.count == 16 && (k == 4 || k == 6 || k == 8 || k == 10) {
                    out[n] = UInt8(ascii: "-")
                    n += 1
                }
                out[n] = JSONWriter.hexDigit(octets[i] >> 4)
                out[n + 1] = JSONWriter.hexDigit(octets[i] & 0xF)
                n += 2
                k += 1
                i -= 1
            }
            out[n] = UInt8(ascii: "\"")
            return n + 1
        }
    }

    /// The assigned names as JSON strings, built at first use.
    enum Names {
        static let companies = JSONNameTable(AssignedNumbers.companies)
        static let uuids16 = JSONNameTable(AssignedNumbers.uuids16)
        static let appearances = JSONNameTable(AssignedNumbers.appearances)
        static let adTypes = JSONNameTable(AssignedNumbers.adTypes)
        static let longest = max(companies.longest, uuids16.longest, appearances.longest, adTypes.longest)
    }
}
