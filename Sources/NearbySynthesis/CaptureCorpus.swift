import NearbyCapture

/// A large capture for the benchmarks (`nearby-benchmarks capture`, docs/performance.md): a
/// phone's controller reporting what `devices` nearby devices advertise, written in constant
/// memory as btsnoop (datalink 1002) and pcap (LINKTYPE 201) with the same records.
///
/// The mix, drawn by a seeded generator so every run writes the same bytes: per advertisement
/// 20 % Eddystone-UID, 5 % URL, 10 % TLM, 5 % EID, 20 % iBeacon, 5 % AltBeacon, 5 % BLE token
/// v1 and 30 % other adverts (names, Apple and Microsoft manufacturer data, 128-bit service
/// UUIDs). 70 % of events are legacy LE Advertising Reports holding 1–3 reports; 30 % are LE
/// Extended Advertising Reports, a tenth of them with data split over two chained reports.
/// One record in 500 is a host command or a Command Complete (ignored when decoding).
public struct CaptureCorpus: Sendable {
    /// Advertisements (reports with AD data; a chained pair counts once) to write.
    public var advertisements: Int
    public var devices = 500
    public var seed: UInt64 = 0x5EED_CA97

    public init(advertisements: Int) {
        self.advertisements = advertisements
    }

    /// What was written.
    public struct Counts: Sendable, Equatable {
        public var records = 0
        /// Advertisements as the decoder delivers them (a chained pair is one).
        public var advertisements = 0
        /// Of those, the ones carrying a beacon frame the decoder recognises.
        public var beacons = 0
    }

    /// Writes the corpus to either or both paths.
    @discardableResult
    public func write(btsnoop: String?, pcap201: String?) throws(CaptureFileError) -> Counts {
        let snoop = try btsnoop.map { p throws(CaptureFileError) in try BtsnoopFileWriter(path: p, datalink: .hciUART) }
        let pcap = try pcap201.map { p throws(CaptureFileError) in
            try PcapWriter(path: p, linkType: .bluetoothHCIH4WithPHDR)
        }
        var rng = SeededGenerator(seed: seed)
        var counts = Counts()
        var t: Int64 = 1_763_700_000_000_000  // 2025-11-21, microseconds since the Unix epoch
        let addresses = (0..<devices).map { i in
            BluetoothAddress(rawValue: 0xC0_00_00_00_00_00 | UInt64(i) &* 0x9E37_79B9 & 0x3F_FF_FF_FF_FF_FF)
        }

        func emit(_ packet: [UInt8], sent: Bool) throws(CaptureFileError) {
            t += 200 + rng.upTo(1_799)
            try snoop?.append(
                packet, flags: sent ? BtsnoopWriter.Flags.sentCommand : BtsnoopWriter.Flags.receivedEvent,
                timestampMicros: t)
            pcap?.write([0, 0, 0, sent ? 0 : 1] + packet, timestampMicros: t)
            counts.records += 1
        }

        while counts.advertisements < advertisements {
            if rng.upTo(499) == 0 {
                try emit(HCIPacketBuilder.command(opcode: HCIPacketBuilder.Opcode.setScanEnable, [1, 0]), sent: true)
                try emit(HCIPacketBuilder.commandComplete(opcode: HCIPacketBuilder.Opcode.setScanEnable), sent: false)
                continue
            }
            let device = Int(rng.upTo(Int64(devices - 1)))
            let rssi = Int8(-40 - rng.upTo(59))
            if rng.upTo(9) < 7 {
                let n = min(1 + Int(rng.upTo(2)), advertisements - counts.advertisements)
                var reports: [HCIPacketBuilder.LegacyReport] = []
                for k in 0..<n {
                    let (data, beacon) = advertisingData(device: (device + k * 37) % devices, &rng)
                    reports.append(
                        .init(
                            eventType: 0x03, addressType: .random, address: addresses[(device + k * 37) % devices],
                            data: data, rssi: rssi))
                    counts.advertisements += 1
                    if beacon { counts.beacons += 1 }
                }
                try emit(HCIPacketBuilder.advertisingReportEvent(reports), sent: false)
            } else {
                let (data, beacon) = advertisingData(device: device, &rng)
                counts.advertisements += 1
                if beacon { counts.beacons += 1 }
                if rng.upTo(9) == 0 && data.count > 8 {
                    // Chained: Data_Status 1 (incomplete, more to come), then 0; non-legacy, SID 3.
                    let cut = data.count / 2
                    for (part, status) in [(Array(data[..<cut]), UInt16(0x20)), (Array(data[cut...]), UInt16(0x00))] {
                        var r = HCIPacketBuilder.ExtendedReport(
                            eventType: status, addressType: .random, address: addresses[device], rssi: rssi, data: part)
                        r.sid = 3
                        r.secondaryPHY = 1
                        try emit(HCIPacketBuilder.extendedAdvertisingReportEvent([r]), sent: false)
                    }
                } else {
                    // A legacy ADV_NONCONN_IND reported through the extended event.
                    let r = HCIPacketBuilder.ExtendedReport(
                        eventType: 0x0010, addressType: .random, address: addresses[device], rssi: rssi, data: data)
                    try emit(HCIPacketBuilder.extendedAdvertisingReportEvent([r]), sent: false)
                }
            }
        }
        try snoop?.close()
        pcap?.close()
        return counts
    }

    /// The 16 bytes `device` builds its beacon identifiers from: the first 10 and last 6 are
    /// its Eddystone-UID namespace and instance, all 16 its iBeacon UUID (`iBeaconID`). They
    /// repeat every 2,048 devices.
    public static func identifier(device: Int) -> [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: (device &* 131) >> ($0 % 4) &+ $0 &* 17) }
    }

    /// The iBeacon ID `device` advertises: its `identifier` as the UUID, major its bits 0–15
    /// (high byte first), minor its bits 16–23 and 7, so that every device below 2^24 has
    /// its own.
    public static func iBeaconID(device: Int) -> [UInt8] {
        identifier(device: device) + [
            UInt8(truncatingIfNeeded: device >> 8), UInt8(truncatingIfNeeded: device),
            UInt8(truncatingIfNeeded: device >> 16), 7,
        ]
    }

    /// One advertisement's AD data, and whether it carries a beacon frame.
    func advertisingData(device: Int, _ rng: inout SeededGenerator) -> ([UInt8], Bool) {
        let id = Self.identifier(device: device)
        let roll = rng.upTo(99)
        switch roll {
        case 0..<20:
            return (
                BeaconAdvertisingData.eddystoneUID(
                    namespace: Array(id[..<10]), instance: Array(id[10...]), txPower: -18), true
            )
        case 20..<25:
            return (
                BeaconAdvertisingData.eddystoneURL(encoded: [0x01] + Array("example".utf8) + [0x07], txPower: -20), true
            )
        case 25..<35:
            return (
                BeaconAdvertisingData.eddystoneTLM(
                    batteryMillivolts: 3000, temperature88: Int16(rng.upTo(7_999)) - 1_000,
                    advertisingCount: UInt32(truncatingIfNeeded: rng.next()),
                    uptimeTenths: UInt32(truncatingIfNeeded: rng.next())), true
            )
        case 35..<40:
            return (BeaconAdvertisingData.eddystoneEID(Array(id[..<8]), txPower: -4), true)
        case 40..<60:
            return (
                BeaconAdvertisingData.iBeacon(uuidMajorMinor: Self.iBeaconID(device: device), measuredPower: -59), true
            )
        case 60..<65:
            return (
                BeaconAdvertisingData.altBeacon(manufacturer: 0x0118, beaconID: id + [0, 1, 0, 2], referenceRSSI: -59),
                true
            )
        case 65..<70:
            return (BeaconAdvertisingData.token(Array(id[..<6]), txPower: -10), true)
        case 70..<80:
            return (
                [0x02, 0x01, 0x1A, 0x0A, 0x09] + Array("Phone \(device % 100)".utf8.prefix(9)).padded(to: 9), false
            )
        case 80..<90:
            // Apple Nearby Info (type 0x10), not an iBeacon.
            return ([0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x01, 0x18] + Array(id[..<3]), false)
        case 90..<95:
            // Microsoft CDP beacon (company 0x0006).
            return ([0x1D, 0xFF, 0x06, 0x00, 0x01, 0x09, 0x20, 0x02] + id + Array(id[..<6]), false)
        default:
            return ([0x02, 0x01, 0x06, 0x11, 0x07] + id, false)
        }
    }
}

extension Array where Element == UInt8 {
    /// Pads with spaces (0x20) to `n` bytes.
    fileprivate func padded(to n: Int) -> [UInt8] { self + [UInt8](repeating: 0x20, count: Swift.max(0, n - count)) }
}
