import NearbyBytes
import NearbyCapture

/// Builders of HCI packets and LE link-layer packets for test fixtures, written from the
/// layouts in the Core specification (as docs/spec/hci.md gives them), independently of the decoders.
public enum FixtureEvents {
    public static func address(_ text: String) -> [UInt8] {
        BluetoothAddress(text)!.littleEndianBytes
    }

    /// An H4 LE Meta event with the given subevent and parameters.
    public static func leMeta(_ subevent: UInt8, _ parameters: [UInt8]) -> [UInt8] {
        [0x04, 0x3E, UInt8(parameters.count + 1), subevent] + parameters
    }

    /// One report of an LE Advertising Report (without Num_Reports).
    public static func legacyReport(
        eventType: UInt8, addressType: UInt8, address: String, data: [UInt8], rssi: Int8
    ) -> [UInt8] {
        [eventType, addressType] + Self.address(address) + [UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
    }

    public static func legacyReportEvent(_ reports: [[UInt8]]) -> [UInt8] {
        leMeta(0x02, [UInt8(reports.count)] + reports.flatMap { $0 })
    }

    /// One report of an LE Extended Advertising Report (without Num_Reports).
    public static func extendedReport(
        eventType: UInt16, addressType: UInt8, address: String, primaryPHY: UInt8 = 1, secondaryPHY: UInt8 = 0,
        sid: UInt8 = 0xFF, txPower: Int8 = 127, rssi: Int8, periodicInterval: UInt16 = 0, data: [UInt8]
    ) -> [UInt8] {
        var r: [UInt8] = [UInt8(eventType & 0xFF), UInt8(eventType >> 8), addressType] + Self.address(address)
        r +=
            [
                primaryPHY, secondaryPHY, sid, UInt8(bitPattern: txPower), UInt8(bitPattern: rssi),
                UInt8(periodicInterval & 0xFF), UInt8(periodicInterval >> 8), 0x00,
            ] + [UInt8](repeating: 0, count: 6)
        return r + [UInt8(data.count)] + data
    }

    public static func extendedReportEvent(_ reports: [[UInt8]]) -> [UInt8] {
        leMeta(0x0D, [UInt8(reports.count)] + reports.flatMap { $0 })
    }

    /// An LE Directed Advertising Report event with one report.
    public static func directedReportEvent(address: String, directAddress: String, rssi: Int8) -> [UInt8] {
        leMeta(
            0x0B,
            [1, 0x01, 0x01] + Self.address(address) + [0x01] + Self.address(directAddress) + [UInt8(bitPattern: rssi)])
    }

    /// HCI LE Set Advertising Data (OGF 0x08, OCF 0x0008) carrying `data`: the host's own
    /// advertisement, which must never count as a sighting.
    public static func setAdvertisingDataCommand(_ data: [UInt8]) -> [UInt8] {
        let padded = data + [UInt8](repeating: 0, count: max(0, 31 - data.count))
        return [0x01, 0x08, 0x20, 32, UInt8(data.count)] + padded
    }

    /// Command Complete for LE Set Scan Enable.
    public static let commandCompleteEvent: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
    /// A small ACL data packet: handle 0x0040, L2CAP on the ATT channel (CID 0x0004), an
    /// ATT Exchange MTU Request for 247 bytes.
    public static let aclPacket: [UInt8] = [0x02, 0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02, 0xF7, 0x00]

    /// An advertising-channel LE packet: access address, header (type, TxAdd), payload,
    /// CRC in on-air order (computed here bit by bit from the Core spec's LFSR, Vol 6
    /// Part B §3.1.1: shift register positions 0–23, init 0x555555 with position 0 = LSB).
    public static func llPacket(
        pduType: UInt8, txRandom: Bool, payload: [UInt8], accessAddress: UInt32 = 0x8E89BED6
    ) -> [UInt8] {
        let pdu = [pduType | (txRandom ? 0x40 : 0), UInt8(payload.count)] + payload
        var aa: [UInt8] = []
        for i in 0..<4 { aa.append(UInt8(truncatingIfNeeded: accessAddress >> (8 * UInt32(i)))) }
        return aa + pdu + onAirCRC(pdu)
    }

    /// The LFSR of the Core spec, run literally: for each data bit (LSB of each byte first),
    /// feedback = bit XOR position 23; positions shift up; taps at 1, 3, 4, 6, 9, 10 take the
    /// feedback. The CRC is sent from position 23 down to 0, packed LSB first into bytes.
    public static func onAirCRC(_ pdu: [UInt8], initial: UInt32 = 0x555555) -> [UInt8] {
        var reg = [Bool](repeating: false, count: 24)
        for i in 0..<24 { reg[i] = initial & (1 << i) != 0 }
        for byte in pdu {
            for bit in 0..<8 {
                let input = (byte >> bit) & 1 == 1
                let feedback = input != reg[23]
                for p in stride(from: 23, to: 0, by: -1) {
                    reg[p] = [1, 3, 4, 6, 9, 10].contains(p) ? (reg[p - 1] != feedback) : reg[p - 1]
                }
                reg[0] = feedback
            }
        }
        var out = [UInt8](repeating: 0, count: 3)
        for k in 0..<24 where reg[23 - k] { out[k / 8] |= 1 << (k % 8) }
        return out
    }

    /// A LINKTYPE 272 record, nRF Sniffer protocol version 2 or 3, around `packet`;
    /// the CRC is rewritten in the sniffer's register form (bit-reversed).
    public static func nordicRecord(
        version: UInt8, packetID: UInt8, channel: UInt8, rssiMagnitude: UInt8, packet: [UInt8]
    ) -> [UInt8] {
        var p = packet
        let crc = UInt32(p[p.count - 3]) | UInt32(p[p.count - 2]) << 8 | UInt32(p[p.count - 1]) << 16
        var rev: UInt32 = 0
        for i in 0..<24 where crc & (1 << i) != 0 { rev |= 1 << (23 - i) }
        p[p.count - 3] = UInt8(rev & 0xFF)
        p[p.count - 2] = UInt8((rev >> 8) & 0xFF)
        p[p.count - 1] = UInt8(rev >> 16)
        let event: [UInt8] = [10, 0x01, channel, rssiMagnitude, 0x00, 0x00, 0x10, 0x20, 0x30, 0x40]
        let payloadLength = event.count + p.count
        return [0x01, UInt8(payloadLength & 0xFF), UInt8(payloadLength >> 8), version, 0x07, 0x00, packetID] + event + p
    }

    /// A LINKTYPE 256 pseudo-header: RF channel, signal and noise (dBm), flags.
    public static func lePseudoHeader(rfChannel: UInt8, signal: Int8, noise: Int8, flags: UInt16) -> [UInt8] {
        [
            rfChannel, UInt8(bitPattern: signal), UInt8(bitPattern: noise), 0, 0xD6, 0xBE, 0x89, 0x8E,
            UInt8(flags & 0xFF), UInt8(flags >> 8),
        ]
    }
}
