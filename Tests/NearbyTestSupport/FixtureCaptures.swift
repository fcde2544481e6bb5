import Foundation
import NearbyCapture

/// The project's own small captures, one per container and link type, built from the
/// reference vectors (`ReferenceVectors`). The same HCI traffic is written in every HCI encapsulation and the
/// same air traffic in every link-layer link type, so that all of them must decode to
/// the same advertisements. `Captures/fixtures/` holds these files as committed; a test
/// checks that they equal what this builder writes.
public enum FixtureCaptures {
    public static let baseTimeMicros: Int64 = 1_700_000_000_123_456

    /// An HCI packet in H4 framing, and whether the controller sent it (received by the host).
    public struct HCIPacket: Sendable {
        public var h4: [UInt8]
        public var received: Bool
    }

    /// The HCI story: the host's own advertising command (an iBeacon it will transmit,
    /// never a sighting), a command completion, the two-report event, three legacy
    /// reports in one event (URL, TLM, and eTLM in a SCAN_RSP), the extended EID report,
    /// a UID advertisement split over two extended reports, a directed report (no data),
    /// ACL data, an AltBeacon and a TLM with nothing supported.
    public static let hciPackets: [HCIPacket] = {
        let fragmentedUID = ReferenceVectors.uidAdvert
        return [
            HCIPacket(h4: FixtureEvents.setAdvertisingDataCommand(ReferenceVectors.iBeaconAdvert), received: false),
            HCIPacket(h4: FixtureEvents.commandCompleteEvent, received: true),
            HCIPacket(h4: ReferenceVectors.twoReportEvent, received: true),
            HCIPacket(
                h4: FixtureEvents.legacyReportEvent([
                    FixtureEvents.legacyReport(
                        eventType: 0, addressType: 1, address: "c0:ff:ee:00:00:03", data: ReferenceVectors.urlAdvert,
                        rssi: -50),
                    FixtureEvents.legacyReport(
                        eventType: 3, addressType: 1, address: "c0:ff:ee:00:00:03", data: ReferenceVectors.tlmAdvert,
                        rssi: -51),
                    FixtureEvents.legacyReport(
                        eventType: 4, addressType: 1, address: "c0:ff:ee:00:00:03", data: ReferenceVectors.etlmAdvert,
                        rssi: -52),
                ]), received: true),
            HCIPacket(h4: ReferenceVectors.eidExtendedReportEvent, received: true),
            HCIPacket(
                h4: FixtureEvents.extendedReportEvent([
                    FixtureEvents.extendedReport(
                        eventType: 0x0020, addressType: 1, address: "c0:ff:ee:00:00:04", secondaryPHY: 2,
                        sid: 1, txPower: -8, rssi: -70, data: Array(fragmentedUID[0..<20]))
                ]), received: true),
            HCIPacket(
                h4: FixtureEvents.extendedReportEvent([
                    FixtureEvents.extendedReport(
                        eventType: 0x0000, addressType: 1, address: "c0:ff:ee:00:00:04", secondaryPHY: 2,
                        sid: 1, txPower: -8, rssi: -71, data: Array(fragmentedUID[20...]))
                ]), received: true),
            HCIPacket(
                h4: FixtureEvents.directedReportEvent(
                    address: "c0:ff:ee:00:00:05", directAddress: "00:11:22:33:44:55", rssi: -80), received: true),
            HCIPacket(h4: FixtureEvents.aclPacket, received: true),
            HCIPacket(
                h4: FixtureEvents.legacyReportEvent([
                    FixtureEvents.legacyReport(
                        eventType: 3, addressType: 0, address: "00:00:00:00:11:18",
                        data: ReferenceVectors.altBeaconAdvert, rssi: -65),
                    FixtureEvents.legacyReport(
                        eventType: 3, addressType: 1, address: "c0:ff:ee:00:00:06",
                        data: ReferenceVectors.tlmNothingSupportedAdvert, rssi: 127),
                ]), received: true),
        ]
    }()

    /// The air story: ADV_NONCONN_IND with the EID advert, ADV_IND with the UID advert,
    /// a SCAN_REQ, a SCAN_RSP carrying the iBeacon, an ADV_DIRECT_IND, and a data-channel PDU.
    public static let airPackets: [[UInt8]] = [
        ReferenceVectors.eidLL251Packet,
        FixtureEvents.llPacket(
            pduType: 0, txRandom: true, payload: FixtureEvents.address("c0:ff:ee:00:00:01") + ReferenceVectors.uidAdvert
        ),
        FixtureEvents.llPacket(
            pduType: 3, txRandom: true,
            payload: FixtureEvents.address("5a:00:00:00:00:01") + FixtureEvents.address("00:11:22:33:44:55")),
        FixtureEvents.llPacket(
            pduType: 4, txRandom: false,
            payload: FixtureEvents.address("00:11:22:33:44:55") + ReferenceVectors.iBeaconAdvert),
        FixtureEvents.llPacket(
            pduType: 1, txRandom: true,
            payload: FixtureEvents.address("c0:ff:ee:00:00:05") + FixtureEvents.address("00:11:22:33:44:55")),
        FixtureEvents.llPacket(pduType: 0x01, txRandom: false, payload: [], accessAddress: 0x5065_4A41),
    ]

    /// File name → bytes of every fixture capture except those libpcap writes.
    public static func nativeFiles() -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        var h4 = BtsnoopWriter(datalink: .hciUART)
        var h1 = BtsnoopWriter(datalink: .hciUnencapsulated)
        var monitor = BtsnoopWriter(datalink: .linuxMonitor)
        var pcapng = PcapngWriter(linkType: .bluetoothHCIH4WithPHDR)
        var text =
            "# Fixture HCI traffic, one H4 packet per line (nearby-conformance Tests/NearbyTestSupport/"
            + "FixtureCaptures.swift).\n"
        for (i, p) in hciPackets.enumerated() {
            let t = baseTimeMicros + Int64(i) * 100_000
            let type = p.h4[0]
            let body = Array(p.h4.dropFirst())
            h4.append(p.h4, flags: (type == 0x01 || type == 0x04 ? 0x02 : 0) | (p.received ? 1 : 0), timestampMicros: t)
            h1.append(body, flags: (type == 0x01 || type == 0x04 ? 0x02 : 0) | (p.received ? 1 : 0), timestampMicros: t)
            monitor.append(body, flags: monitorOpcode(type, received: p.received), timestampMicros: t)
            pcapng.append([0, 0, 0, p.received ? 1 : 0] + p.h4, timestampMicros: t)
            text += "packet\(i + 1)\t" + p.h4.map { String(format: "%02X", $0) }.joined(separator: " ") + "\n"
        }
        files.append(("hci-h4-1002.btsnoop", h4.bytes))
        files.append(("hci-h1-1001.btsnoop", h1.bytes))
        files.append(("hci-monitor-2001.btsnoop", monitor.bytes))
        files.append(("hci-h4-phdr-201.pcapng", pcapng.bytes))
        files.append(("hci-h4.txt", Array(text.utf8)))
        return files
    }

    static func monitorOpcode(_ h4Type: UInt8, received: Bool) -> UInt32 {
        switch h4Type {
        case 0x01: 2
        case 0x04: 3
        case 0x02: received ? 5 : 4
        default: 12
        }
    }

    /// Writes every fixture capture into `directory`; returns the file names.
    @discardableResult
    public static func write(to directory: String) throws -> [String] {
        var names: [String] = []
        for (name, bytes) in nativeFiles() {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
            names.append(name)
        }
        let w187 = try PcapWriter(path: directory + "/hci-h4-187.pcap", linkType: .bluetoothHCIH4)
        let w201 = try PcapWriter(path: directory + "/hci-h4-phdr-201.pcap", linkType: .bluetoothHCIH4WithPHDR)
        let w254 = try PcapWriter(path: directory + "/hci-monitor-254.pcap", linkType: .bluetoothLinuxMonitor)
        for (i, p) in hciPackets.enumerated() {
            let t = baseTimeMicros + Int64(i) * 100_000
            w187.write(p.h4, timestampMicros: t)
            w201.write([0, 0, 0, p.received ? 1 : 0] + p.h4, timestampMicros: t)
            let opcode = UInt16(monitorOpcode(p.h4[0], received: p.received))
            w254.write([0, 0, UInt8(opcode >> 8), UInt8(opcode & 0xFF)] + Array(p.h4.dropFirst()), timestampMicros: t)
        }
        [w187, w201, w254].forEach { $0.close() }
        names += ["hci-h4-187.pcap", "hci-h4-phdr-201.pcap", "hci-monitor-254.pcap"]

        let w251 = try PcapWriter(path: directory + "/le-ll-251.pcap", linkType: .bluetoothLELL)
        let w256 = try PcapWriter(path: directory + "/le-ll-phdr-256.pcap", linkType: .bluetoothLELLWithPHDR)
        let w272 = try PcapWriter(path: directory + "/nordic-ble-272.pcap", linkType: .nordicBLE)
        let rfChannels: [UInt8] = [0, 12, 39]
        let channelIndices: [UInt8] = [37, 38, 39]
        for (i, packet) in airPackets.enumerated() {
            let t = baseTimeMicros + Int64(i) * 100_000
            let isData = packet[0] != 0xD6
            w251.write(packet, timestampMicros: t)
            w256.write(
                FixtureEvents.lePseudoHeader(
                    rfChannel: isData ? 5 : rfChannels[i % 3], signal: Int8(-40 - i), noise: -95,
                    flags: 0x0001 | 0x0002 | 0x0004 | 0x0400 | 0x0800) + packet, timestampMicros: t)
            let version: UInt8 = i % 2 == 0 ? 2 : 3
            let id: UInt8 = version == 3 ? (isData ? 0x06 : 0x02) : 0x06
            w272.write(
                FixtureEvents.nordicRecord(
                    version: version, packetID: id, channel: isData ? 4 : channelIndices[i % 3],
                    rssiMagnitude: UInt8(40 + i), packet: packet), timestampMicros: t)
        }
        [w251, w256, w272].forEach { $0.close() }
        names += ["le-ll-251.pcap", "le-ll-phdr-256.pcap", "nordic-ble-272.pcap"]
        return names.sorted()
    }

    public static let hciFileNames = [
        "hci-h1-1001.btsnoop", "hci-h4-1002.btsnoop", "hci-h4-187.pcap", "hci-h4-phdr-201.pcap",
        "hci-h4-phdr-201.pcapng", "hci-h4.txt", "hci-monitor-2001.btsnoop", "hci-monitor-254.pcap",
    ]
    public static let airFileNames = ["le-ll-251.pcap", "le-ll-phdr-256.pcap", "nordic-ble-272.pcap"]
}
