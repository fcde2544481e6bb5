import NearbyAudio
import NearbyBytes
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `decode --format table` lines (docs/decode-output.md): aligned columns for people,
/// one line per advertisement or sound-file frame, and the accounting under `--summary`.
public enum DecodeTable {
    /// One advertisement: record (7, right-aligned), time (ISO 8601, 27), address (17),
    /// address type (15), RSSI in dBm (4, right-aligned), event type (15), then its beacons
    /// (or its AD errors), each column followed by two spaces; appended to `out` without the
    /// line end. `scratch` holds each beacon's JSON object on the way and the last date.
    package static func write(_ d: DecodedAdvertisement, to w: inout JSONWriter, scratch: inout Scratch) {
        let a = d.advertisement
        NameText.withUTF8(a.addressType.name, else: a.addressType.description) { addressType in
            NameText.withUTF8(a.definedEventTypeName, else: a.eventTypeName) { eventType in
                // The columns have fixed widths and the names are padded to them: under 128
                // bytes beside the names (the record and time under 21 and
                // `CivilTime.maximumLength` bytes).
                w.run(maxLength: 128 + addressType.count + eventType.count, endsWithValue: false) { r in
                    let record = UInt64(max(0, a.record))
                    r.spaces(7 - JSONWriter.decimalDigits(record))
                    r.integer(record)
                    r.spaces(2)
                    if let t = a.timestampMicros {
                        r.write { CivilTime.write(micros: t, to: $0, cache: &scratch.date) }
                        r.spaces(2)
                    } else {
                        r.literal("-")
                        r.spaces(26 + 2)
                    }
                    r.write { AddressText.write(a.address, to: $0) }
                    r.spaces(2)
                    r.bytes(addressType)
                    r.spaces(max(0, 15 - addressType.count) + 2)
                    if let rssi = a.rssiDBm {
                        r.spaces(4 - JSONWriter.decimalDigits(UInt64(rssi.magnitude)) - (rssi < 0 ? 1 : 0))
                        r.integer(rssi)
                    } else {
                        r.literal("   -")
                    }
                    r.spaces(2)
                    r.bytes(eventType)
                    r.spaces(max(0, 15 - eventType.count) + 2)
                }
            }
        }
        writeBeaconsAndErrors(d, to: &w, scratch: &scratch)
    }

    /// The header row above a capture's lines: each column's label at its place.
    public static let header =
        " record  time                         address            address type     rssi  event type       "
        + "content"

    /// The last column, `content`: the beacons, or for an advertisement without one its AD
    /// structures (`TYPE key=value …` as the `ad` entries of the JSON lines), then the AD
    /// errors, separated by `; `.
    static func writeBeaconsAndErrors(_ d: DecodedAdvertisement, to w: inout JSONWriter, scratch: inout Scratch) {
        var first = true
        for beacon in d.beacons {
            if !first { w.text("; ") }
            first = false
            appendBeaconSummary(beacon, to: &w, scratch: &scratch.json)
        }
        if d.beacons.isEmpty, let data = d.advertisement.data {
            data.withUnsafeBytes { raw in
                ADStructureWalk.forEach(in: raw.assumingMemoryBound(to: UInt8.self)) { type, payload in
                    if !first { w.text("; ") }
                    first = false
                    w.append(ADStructureJSON.typeName(type))
                    scratch.json.removeAll()
                    ADStructureJSON.writeEntry(type, payload, to: &scratch.json)
                    scratch.json.withBytes { appendMembers(of: $0, to: &w, skippingADType: true) }
                }
            }
        }
        for error in d.contents.errors {
            if !first { w.text("; ") }
            first = false
            w.text("! \(error.key) at \(error.offset)")
        }
    }

    /// What `write` keeps between lines: a beacon's JSON object on the way, the last date.
    public struct Scratch: ~Copyable {
        var json = JSONWriter(capacity: 256)
        var date = CivilTime.DateCache()

        public init() {}
    }

    /// One advertisement's line, without the line end.
    public static func row(_ d: DecodedAdvertisement) -> String {
        var out = JSONWriter(capacity: 256)
        var scratch = Scratch()
        write(d, to: &out, scratch: &scratch)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// `TYPE key=value …`: the beacon's type, then the other members of its JSON object
    /// (`BeaconJSON.write`) in key order, each value as JSON text.
    static func appendBeaconSummary(_ beacon: BeaconFrame, to out: inout JSONWriter, scratch: inout JSONWriter) {
        out.append(beacon.staticTypeName)
        if BeaconJSON.writeRun(beacon, to: &out, style: .text) { return }
        scratch.removeAll()
        BeaconJSON.write(beacon, to: &scratch)
        scratch.withBytes { appendMembers(of: $0, to: &out) }
    }

    /// ` key=value` for each member of `json` but `type` (and `adType`, when `skippingADType`),
    /// in order.
    static func appendMembers(
        of json: UnsafeBufferPointer<UInt8>, to out: inout JSONWriter, skippingADType: Bool = false
    ) {
        do {
            // The object is the writer's own compact text: `{"key":value,…}`, keys without
            // escapes; a value ends at the first `,` or `}` outside strings and brackets.
            var i = 1
            while i < json.count - 1 {
                // Keys are the writer's own: no escapes, so the first quote ends one.
                let keyStart = i + 1
                let keyEnd = quoteOrBackslash(in: json, from: keyStart)
                let valueStart = keyEnd + 2
                let j = valueEnd(in: json, from: valueStart)
                let key = UnsafeBufferPointer(rebasing: json[keyStart..<keyEnd])
                let isType =
                    key.count == 4 && key[0] == UInt8(ascii: "t") && key[1] == UInt8(ascii: "y")
                    && key[2] == UInt8(ascii: "p") && key[3] == UInt8(ascii: "e")
                let isADType = skippingADType && key.elementsEqual("adType".utf8)
                if !isType && !isADType {
                    out.append(UInt8(ascii: " "), count: 1)
                    out.append(key)
                    out.append(UInt8(ascii: "="), count: 1)
                    out.append(UnsafeBufferPointer(rebasing: json[valueStart..<j]))
                }
                i = j + 1
            }
        }
    }

    /// The end of the JSON value that starts at `start` in the writer's compact text: the
    /// index of the `,` or `}` after it.
    static func valueEnd(in json: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var j = start
        switch json[j] {
        case UInt8(ascii: "\""):
            // A string is passed over to its closing quote in one loop.
            j = quoteOrBackslash(in: json, from: j + 1)
            while j < json.count && json[j] != UInt8(ascii: "\"") {
                j = quoteOrBackslash(in: json, from: j + 2)
            }
            return j + 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while j < json.count {
                switch json[j] {
                case UInt8(ascii: "\""): j = valueEnd(in: json, from: j) - 1
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return j + 1 }
                default: break
                }
                j += 1
            }
            return j
        default:
            // A number, `true`, `false` or `null`.
            while j < json.count && json[j] != UInt8(ascii: ",") && json[j] != UInt8(ascii: "}") { j += 1 }
            return j
        }
    }

    /// The index of the first `"` or `\\` in `text` at or after `start`, or `text.count`.
    /// Eight bytes at a time: a byte equal to the sought one is a zero byte of the XOR, and
    /// `(v - 0x01…01) & ~v & 0x80…80` marks the first zero byte of `v` exactly.
    static func quoteOrBackslash(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = text.baseAddress else { return text.count }
        let from = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = start
        while i + 8 <= text.count {
            let word = UInt64(littleEndian: from.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
            let found = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & highs
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < text.count && text[i] != UInt8(ascii: "\"") && text[i] != UInt8(ascii: "\\") { i += 1 }
        return i
    }

    /// A file's (or the run's) accounting in two or three lines.
    public static func summary(_ a: DecodeAccounting) -> String {
        func list(_ d: [String: Int]) -> String {
            d.isEmpty ? "" : " (" + d.keys.sorted().map { "\($0) \(d[$0]!)" }.joined(separator: ", ") + ")"
        }
        let beacons = a.beaconsByType.isEmpty ? " 0" : list(a.beaconsByType)
        return """
            records read \(a.recordsRead): decoded \(a.decoded), ignored \(a.ignored)\(list(a.ignoredByReason)), \
            malformed \(a.malformed)\(list(a.malformedByReason))
            advertisements \(a.advertisements) with AD data, \(a.advertisementsWithoutData) without, \
            \(a.truncatedAdvertisements) truncated; beacons\(beacons)
            """
                + (a.bytesSkipped > 0
                    ? "\nskipped \(a.bytesSkipped) bytes of damage, \(a.resynchronizations) "
                        + "resynchronisation\(a.resynchronizations == 1 ? "" : "s")"
                    : "")
    }

    /// One sound-file frame: start and end (s, 6 decimals, 11 wide), mode (9), token (hex,
    /// 32), SNR (dB, 1 decimal), clock offset (ppm, 1 decimal), bytes corrected, channel.
    public static func row(_ f: AudioTokenFrame) -> String {
        [
            PrintfText.format("%11.6f", f.start), PrintfText.format("%11.6f", f.end),
            PrintfText.padded(f.mode.rawValue, to: 9),
            PrintfText.padded(Hex.encode(f.token), to: 32), PrintfText.format("%6.1f dB", f.snrDb),
            PrintfText.format("%8.1f ppm", f.clockOffsetPpm), "rs \(f.correctedBytes)", "ch \(f.channel)",
        ].joined(separator: "  ")
    }
}
