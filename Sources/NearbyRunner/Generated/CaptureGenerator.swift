import NearbyBytes
import NearbyCapture
import NearbyJSON
import NearbySynthesis

/// Builds capture files of generated advertisements (docs/spec/containers.md, hci.md): a
/// container (pcap in either byte order with micro- or nanosecond timestamps, pcapng in
/// either byte order with one to three interfaces, btsnoop, hex text) around records of one
/// link type (H4 with or without the direction header, or the LE link layer with or without
/// its pseudo-header), with the beacons each record carries and the record accounting taken
/// from what was written.
struct CaptureGenerator {
    var rng: SeededGenerator
    var frames: FrameGenerator

    init(seed: UInt64) {
        rng = SeededGenerator(seed: seed)
        frames = FrameGenerator(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    struct Generated {
        var bytes: [UInt8]
        /// File name extension: pcap, pcapng, btsnoop or txt.
        var fileExtension: String
        var beacons: [JSONValue]
        var records: (read: Int, decoded: Int, ignored: Int)
        var clauses: [String]
        var flags: [String]
        var what: String
    }

    enum Container: CaseIterable {
        case pcap, pcapng, btsnoop, hexText
    }

    enum Link {
        case h4, h4WithDirection, linkLayer, linkLayerWithPseudoHeader
    }

    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(rng.upTo(Int64(range.count - 1))) }
    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }

    mutating func next() -> Generated {
        let container = Container.allCases[int(0..<4)]
        let link: Link =
            switch container {
            case .btsnoop, .hexText: .h4
            case .pcap, .pcapng: [.h4, .h4WithDirection, .linkLayer, .linkLayerWithPseudoHeader][int(0..<4)]
            }
        let bigEndian = chance(0.5), nanoseconds = chance(0.5)
        let interfaces = container == .pcapng ? int(1..<4) : 1
        var flags: Set<String> = []
        var clauses: Set<String> = []
        var packets: [(bytes: [UInt8], sent: Bool)] = []
        var beacons: [JSONValue] = []
        var decoded = 0, ignored = 0
        for _ in 0..<int(1..<12) {
            let record = packets.count + 1
            switch link {
            case .h4, .h4WithDirection:
                if chance(0.1) {
                    // The host's own command: not an advertisement received.
                    packets.append(
                        (HCIPacketBuilder.command(opcode: HCIPacketBuilder.Opcode.setScanEnable, [1, 0]), true))
                    ignored += 1
                    clauses.insert("RECORDS-1")
                    continue
                }
                if chance(0.25) {
                    let f = frames.next()
                    var r = HCIPacketBuilder.ExtendedReport(
                        eventType: 0x0000, addressType: .random, address: address(), rssi: rssi(), data: f.adData)
                    r.primaryPHY = 1
                    packets.append((HCIPacketBuilder.extendedAdvertisingReportEvent([r]), false))
                    beacons += f.beacons.map { with(record, $0) }
                    flags.formUnion(f.flags + ["ExtendedReport"])
                    clauses.formUnion(f.clauses + ["HCI-EXT-1"])
                } else {
                    var reports: [HCIPacketBuilder.LegacyReport] = []
                    for _ in 0..<(chance(0.2) ? int(2..<4) : 1) {
                        let f = frames.next()
                        reports.append(
                            .init(
                                eventType: 0x03, addressType: .random, address: address(), data: f.adData, rssi: rssi())
                        )
                        beacons += f.beacons.map { with(record, $0) }
                        flags.formUnion(f.flags)
                        clauses.formUnion(f.clauses)
                    }
                    if reports.count > 1 { flags.insert("MultipleStructures") }
                    clauses.insert("HCI-ADV-1")
                    packets.append((HCIPacketBuilder.advertisingReportEvent(reports), false))
                }
                decoded += 1
            case .linkLayer, .linkLayerWithPseudoHeader:
                let f = frames.next()
                var p = LinkLayerPacketBuilder.advertisingPacket(
                    pduType: LinkLayerPacketBuilder.PDUType.advNonconnInd, addressType: .random, address: address(),
                    data: f.adData)
                if link == .linkLayerWithPseudoHeader {
                    p = LinkLayerPacketBuilder.pseudoHeader(channelIndex: UInt8(37 + int(0..<3)), signal: rssi()) + p
                }
                packets.append((p, false))
                beacons += f.beacons.map { with(record, $0) }
                flags.formUnion(f.flags + ["LinkLayer"])
                clauses.formUnion(f.clauses + ["LL-1"])
                decoded += 1
            }
        }
        var t: Int64 = 1_700_000_000_000_000 + rng.upTo(1_000_000_000_000)
        var times: [Int64] = []
        for _ in packets {
            t += 1 + rng.upTo(200_000)
            times.append(t)
        }
        let bytes: [UInt8]
        let ext: String
        let linkType: LinkType =
            switch link {
            case .h4: .bluetoothHCIH4
            case .h4WithDirection: .bluetoothHCIH4WithPHDR
            case .linkLayer: .bluetoothLELL
            case .linkLayerWithPseudoHeader: .bluetoothLELLWithPHDR
            }
        func framed(_ p: (bytes: [UInt8], sent: Bool)) -> [UInt8] {
            link == .h4WithDirection ? [0, 0, 0, p.sent ? 0 : 1] + p.bytes : p.bytes
        }
        switch container {
        case .pcap:
            var w = PcapBytesWriter(linkType: linkType, bigEndian: bigEndian, nanoseconds: nanoseconds)
            for (p, time) in zip(packets, times) { w.append(framed(p), timestampMicros: time) }
            bytes = w.bytes
            ext = "pcap"
            clauses.insert("PCAP-1")
            if bigEndian { flags.insert("ByteOrder") }
            if nanoseconds { flags.insert("TimestampPrecision") }
        case .pcapng:
            var w = PcapngWriter(linkType: linkType, bigEndian: bigEndian, interfaces: interfaces)
            for (p, time) in zip(packets, times) {
                w.append(framed(p), timestampMicros: time, interface: int(0..<interfaces))
            }
            bytes = w.bytes
            ext = "pcapng"
            clauses.insert("PCAPNG-1")
            if bigEndian { flags.insert("ByteOrder") }
        case .btsnoop:
            var w = BtsnoopWriter(datalink: .hciUART)
            for (p, time) in zip(packets, times) {
                w.append(
                    p.bytes, flags: p.sent ? BtsnoopWriter.Flags.sentCommand : BtsnoopWriter.Flags.receivedEvent,
                    timestampMicros: time)
            }
            bytes = w.bytes
            ext = "btsnoop"
            clauses.insert("BTSNOOP-1")
        case .hexText:
            var text = "# generated by nearby-conformance validate --generated: one H4 packet per line\n"
            for (n, p) in packets.enumerated() {
                text += "packet\(n + 1)\t" + p.bytes.map { Hex.encode([$0]) }.joined(separator: " ") + "\n"
            }
            bytes = Array(text.utf8)
            ext = "txt"
            clauses.insert("HEXTEXT-1")
        }
        clauses.insert("RECORDS-1")
        let linkName =
            switch link {
            case .h4: "H4"
            case .h4WithDirection: "H4 with direction"
            case .linkLayer: "LE link layer"
            case .linkLayerWithPseudoHeader: "LE link layer with pseudo-header"
            }
        return Generated(
            bytes: bytes, fileExtension: ext, beacons: beacons,
            records: (packets.count, decoded, ignored), clauses: clauses.sorted(), flags: flags.sorted(),
            what: "\(ext) of \(packets.count) \(linkName) records"
                + (container == .pcap
                    ? (bigEndian ? ", big-endian" : ", little-endian") + (nanoseconds ? ", ns" : ", µs") : "")
                + (container == .pcapng
                    ? (bigEndian ? ", big-endian" : ", little-endian") + ", \(interfaces) interface(s)" : ""))
    }

    mutating func address() -> BluetoothAddress {
        BluetoothAddress(rawValue: 0xC0_00_00_00_00_00 | (rng.next() & 0x3F_FF_FF_FF_FF_FF))
    }

    /// A received signal strength, never 127 (which the reports reserve for "not available").
    mutating func rssi() -> Int8 { Int8(-100 + int(0..<90)) }

    func with(_ record: Int, _ beacon: JSONValue) -> JSONValue {
        guard case .object(var o) = beacon else { return beacon }
        o["record"] = .int(record)
        return .object(o)
    }
}
