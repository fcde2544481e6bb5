import NearbyCapture

/// Runs a `World` and hands every record of the captures it implies, in time order, to a
/// sink (docs/synthesis.md):
///
/// - the **HCI view**: what the observer's host receives from its scanning controller,
///   the records of btsnoop (H4, 1002) and pcap (201, 187) captures: the scan set-up
///   commands and their completions, scan pauses, and advertising report events;
/// - the **air view**: what a sniffer parked on channel 37 records, a pcap (256) capture.
///
/// Model. A device's advertising event k is sent at tₖ = tₖ₋₁ + interval + advDelay (uniform
/// 0–10 ms), t₀ uniform in [0, interval), on channel 37 at tₖ, 38 at tₖ + 400 µs and 39 at
/// tₖ + 800 µs; it carries the next of the device's frames active at tₖ. Nothing is received
/// while the device's mean RSSI is below the scanner's sensitivity. The scanner listens on
/// channel 37 + (j mod 3) during [j·interval, j·interval + window) and so hears at most one of
/// the three copies; it drops a heard copy with probability `lossRate`, reports it 500 µs
/// after it began (the PDU's air time plus controller latency), and, when batching, sends the
/// reports received within `batch` of the first one waiting in one event. Reported RSSI is
/// the mean plus Gaussian noise, rounded and clamped to −127…+20 dBm. Random draws come from
/// one `SeededGenerator` in a fixed order, so a seed gives the same bytes on every platform.
public struct Synthesizer {
    /// Where a record goes.
    public enum View: Sendable { case hci, air }

    /// One record for the captures: H4 bytes for the HCI view (with `sent` true for commands),
    /// a 256 pseudo-header and link-layer packet for the air view.
    public struct Record {
        public var view: View
        public var timeMicros: Int64
        public var bytes: [UInt8]
        public var sent: Bool
    }

    /// One advertisement as the captures carry it, for the ground truth.
    public struct Reception: Sendable {
        public var view: View
        public var device: Int
        public var frame: Int
        /// Timestamp of the record that completes it (µs, scenario time base).
        public var timeMicros: Int64
        /// 1-based record number in that view's captures.
        public var record: Int
        public var rssi: Int8
    }

    /// Counts of what the run produced.
    public struct Counts: Sendable {
        public var transmissions = 0
        public var hciRecords = 0
        public var advertisingEvents = 0
        public var reports = 0
        /// Advertisements completed in those reports (a fragmented one takes several reports).
        public var advertisements = 0
        /// Heard by the scanner but dropped (`lossRate`).
        public var lost = 0
        public var airRecords = 0
    }

    public let world: World
    public private(set) var counts = Counts()
    private var generator: SeededGenerator
    /// Report delay after the start of the copy the scanner heard.
    static let reportLatencyMicros: Int64 = 500
    static let channelSpacingMicros: Int64 = 400

    public init(world: World) {
        self.world = world
        generator = SeededGenerator(seed: world.seed)
    }

    private struct Heard {
        var device: Int
        var frame: Int
        var timeMicros: Int64
        var rssi: Int8
    }

    /// The world run from 0 to its duration: every record in time order (within each view)
    /// and every advertisement it completes.
    public mutating func run() -> (records: [Record], receptions: [Reception]) {
        var records: [Record] = [], receptions: [Reception] = []
        run(record: { records.append($0) }, reception: { receptions.append($0) })
        return (records, receptions)
    }

    /// Runs the world from 0 to its duration, calling `record` for every record in time order
    /// (within each view) and `reception` for every advertisement it completes.
    package mutating func run(record: (Record) throws -> Void, reception: (Reception) -> Void) rethrows {
        let scanner = world.scanner
        var hciRecord = 0, airRecord = 0
        func emitHCI(_ bytes: [UInt8], at time: Int64, sent: Bool) throws {
            hciRecord += 1
            try record(Record(view: .hci, timeMicros: time, bytes: bytes, sent: sent))
        }
        // Set-up and pauses: commands, each answered by Command Complete 100 µs later.
        var commands: [(time: Int64, opcode: UInt16, parameters: [UInt8])] = []
        let extended = scanner.reports == .extended
        let units = { (us: Int64) -> [UInt8] in
            let u = UInt16(clamping: (us + 312) / 625)
            return [UInt8(u & 0xFF), UInt8(u >> 8)]
        }
        if extended {
            commands.append(
                (
                    0, HCIPacketBuilder.Opcode.setExtendedScanParameters,
                    [0x01, 0x00, 0x01, 0x00] + units(scanner.intervalMicros) + units(scanner.windowMicros)
                ))
        } else {
            commands.append(
                (
                    0, HCIPacketBuilder.Opcode.setScanParameters,
                    [0x00] + units(scanner.intervalMicros) + units(scanner.windowMicros) + [0x01, 0x00]
                ))
        }
        let enable = { (on: Bool) -> (UInt16, [UInt8]) in
            extended
                ? (HCIPacketBuilder.Opcode.setExtendedScanEnable, [on ? 1 : 0, 0, 0, 0, 0, 0])
                : (HCIPacketBuilder.Opcode.setScanEnable, [on ? 1 : 0, 0])
        }
        let on = enable(true), off = enable(false)
        commands.append((200, on.0, on.1))
        for p in scanner.pauses {
            commands.append((p.from, off.0, off.1))
            commands.append((p.until, on.0, on.1))
        }
        var nextCommand = 0
        func emitCommands(through time: Int64) throws {
            while nextCommand < commands.count, commands[nextCommand].time <= time {
                let c = commands[nextCommand]
                nextCommand += 1
                try emitHCI(HCIPacketBuilder.command(opcode: c.opcode, c.parameters), at: c.time, sent: true)
                try emitHCI(HCIPacketBuilder.commandComplete(opcode: c.opcode), at: c.time + 100, sent: false)
            }
        }

        // Reports waiting to be sent, in time order, and the batch being filled.
        var heard: [Heard] = []
        var batch: [Heard] = []
        var batchBytes = 1
        func reportLength(_ h: Heard) -> [Int] {
            let data = world.devices[h.device].frames[h.frame].adData.count
            if !extended { return [10 + data] }
            guard world.devices[h.device].extendedAdvertising, let f = scanner.fragmentBytes, data > f else {
                return [24 + data]
            }
            return stride(from: 0, to: data, by: f).map { 24 + min(f, data - $0) }
        }
        func flushBatch() throws {
            guard let last = batch.last else { return }
            try emitCommands(through: last.timeMicros)
            var legacy: [HCIPacketBuilder.LegacyReport] = []
            var ext: [HCIPacketBuilder.ExtendedReport] = []
            var completes: [Heard] = []
            func send() throws {
                let bytes =
                    extended
                    ? HCIPacketBuilder.extendedAdvertisingReportEvent(ext)
                    : HCIPacketBuilder.advertisingReportEvent(legacy)
                counts.advertisingEvents += 1
                counts.reports += extended ? ext.count : legacy.count
                try emitHCI(bytes, at: last.timeMicros, sent: false)
                counts.advertisements += completes.count
                for h in completes {
                    reception(
                        Reception(
                            view: .hci, device: h.device, frame: h.frame, timeMicros: last.timeMicros,
                            record: hciRecord, rssi: h.rssi))
                }
                legacy.removeAll()
                ext.removeAll()
                completes.removeAll()
            }
            var used = 1
            for h in batch {
                let d = world.devices[h.device]
                let data = d.frames[h.frame].adData
                if !extended {
                    if used + 10 + data.count > 254 {
                        try send()
                        used = 1
                    }
                    legacy.append(
                        .init(
                            eventType: d.connectable ? 0x00 : 0x03, addressType: d.addressType,
                            address: d.frames[h.frame].address ?? d.address,
                            data: data, rssi: h.rssi))
                    used += 10 + data.count
                    completes.append(h)
                    continue
                }
                let fragment = d.extendedAdvertising ? (scanner.fragmentBytes ?? data.count) : data.count
                var start = 0
                repeat {
                    let end = min(data.count, start + max(fragment, 1))
                    let more = end < data.count
                    if used + 24 + (end - start) > 254 {
                        try send()
                        used = 1
                    }
                    var type: UInt16 =
                        d.extendedAdvertising ? (d.connectable ? 0x01 : 0x00) : (d.connectable ? 0x13 : 0x10)
                    if more { type |= 0x20 }
                    var r = HCIPacketBuilder.ExtendedReport(
                        eventType: type, addressType: d.addressType,
                        address: d.frames[h.frame].address ?? d.address,
                        rssi: h.rssi, data: Array(data[start..<end]))
                    if d.extendedAdvertising {
                        r.secondaryPHY = 1
                        r.sid = 0
                    }
                    ext.append(r)
                    used += 24 + (end - start)
                    if !more { completes.append(h) }
                    start = end
                } while start < data.count
            }
            try send()
            batch.removeAll()
            batchBytes = 1
        }
        /// Moves reports that no later transmission can precede (time < horizon) into batches.
        func drain(horizon: Int64) throws {
            while let h = heard.first, h.timeMicros < horizon {
                if let first = batch.first {
                    let bytes = reportLength(h).reduce(0, +)
                    let commandBetween = nextCommand < commands.count && commands[nextCommand].time <= h.timeMicros
                    let fits =
                        batch.count < scanner.maxReportsPerEvent && batchBytes + bytes <= 254
                        && h.timeMicros < first.timeMicros + scanner.batchMicros && !commandBetween
                    if !fits { try flushBatch() }
                }
                batch.append(h)
                batchBytes += reportLength(h).reduce(0, +)
                heard.removeFirst()
                if scanner.batchMicros == 0 || batch.count == scanner.maxReportsPerEvent { try flushBatch() }
            }
            if let first = batch.first, horizon >= first.timeMicros + scanner.batchMicros { try flushBatch() }
        }

        // Devices' advertising events, merged in time order (ties: lower device index first).
        var next = world.devices.map { generator.upTo($0.intervalMicros - 1) }
        var cursor = [Int](repeating: 0, count: world.devices.count)
        while true {
            var d = -1
            for i in next.indices where next[i] < world.durationMicros && (d < 0 || next[i] < next[d]) { d = i }
            guard d >= 0 else { break }
            let device = world.devices[d]
            let t = next[d]
            next[d] = t + device.intervalMicros + generator.upTo(10_000)
            try drain(horizon: t + Self.reportLatencyMicros)
            let active = device.frames.indices.filter { device.frames[$0].isActive(at: t) }
            guard !active.isEmpty else { continue }
            let frame = active[cursor[d] % active.count]
            cursor[d] += 1
            counts.transmissions += 1
            let mean = device.meanRSSI(at: t)
            guard mean >= scanner.sensitivityDBm else { continue }
            if !device.extendedAdvertising {
                let rssi = sample(mean, device.rssiNoiseDB)
                let pdu =
                    device.connectable
                    ? LinkLayerPacketBuilder.PDUType.advInd : LinkLayerPacketBuilder.PDUType.advNonconnInd
                airRecord += 1
                counts.airRecords += 1
                try record(
                    Record(
                        view: .air, timeMicros: t,
                        bytes: LinkLayerPacketBuilder.pseudoHeader(channelIndex: 37, signal: rssi)
                            + LinkLayerPacketBuilder.advertisingPacket(
                                pduType: pdu, addressType: device.addressType,
                                address: device.frames[frame].address ?? device.address,
                                data: device.frames[frame].adData),
                        sent: false))
                reception(Reception(view: .air, device: d, frame: frame, timeMicros: t, record: airRecord, rssi: rssi))
            }
            if device.extendedAdvertising && !extended { continue }
            for k in 0..<3 {
                let tc = t + Int64(k) * Self.channelSpacingMicros
                let j = tc / scanner.intervalMicros
                guard j % 3 == Int64(k), tc - j * scanner.intervalMicros < scanner.windowMicros else { continue }
                // Scanning is on from 200 µs; a pause drops what would be reported after it starts.
                let reported = tc + Self.reportLatencyMicros
                guard tc >= 200, !scanner.pauses.contains(where: { reported >= $0.from && tc < $0.until }) else {
                    break
                }
                if scanner.lossRate > 0 && generator.unit() < scanner.lossRate {
                    counts.lost += 1
                    break
                }
                let h = Heard(
                    device: d, frame: frame, timeMicros: tc + Self.reportLatencyMicros,
                    rssi: sample(mean, device.rssiNoiseDB))
                let at = heard.firstIndex(where: { $0.timeMicros > h.timeMicros }) ?? heard.endIndex
                heard.insert(h, at: at)
                break
            }
        }
        try drain(horizon: .max)
        try flushBatch()
        try emitCommands(through: .max)
        counts.hciRecords = hciRecord
    }

    private mutating func sample(_ mean: Double, _ noise: Double) -> Int8 {
        let v = noise > 0 ? mean + noise * generator.gaussian() : mean
        return Int8(max(-127, min(20, v.rounded())))
    }
}
