import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbySynthesis
import NearbyTestSupport
import Testing

/// The reception model of docs/synthesis.md, checked on small worlds built here.
struct SynthesizerModelTests {
    static let uid = BeaconAdvertisingData.eddystoneUID(
        namespace: Array(repeating: 0x11, count: 10), instance: [1, 2, 3, 4, 5, 6], txPower: -20)

    static func device(
        _ name: String = "b", path: [(time: Int64, dBm: Double)] = [(0, -60)], interval: Int64 = 100_000,
        extended: Bool = false, frames: [World.Frame]? = nil
    ) -> World.Device {
        World.Device(
            name: name, address: BluetoothAddress(rawValue: 0xC0_0000_0000_01), addressType: .random,
            intervalMicros: interval, extendedAdvertising: extended, path: path,
            frames: frames ?? [World.Frame(kind: "eddystone-uid", adData: uid)])
    }

    static func run(
        _ world: World
    ) -> (
        counts: Synthesizer.Counts, hci: [Synthesizer.Reception], air: [Synthesizer.Reception],
        records: [Synthesizer.Record]
    ) {
        var s = Synthesizer(world: world)
        var hci: [Synthesizer.Reception] = [], air: [Synthesizer.Reception] = [], records: [Synthesizer.Record] = []
        s.run(
            record: { records.append($0) },
            reception: { r in if r.view == .hci { hci.append(r) } else { air.append(r) } })
        return (s.counts, hci, air, records)
    }

    @Test func aContinuousScannerWithoutLossHearsNearlyEveryAdvertisingEventOnce() {
        let r = Self.run(World(seed: 3, durationMicros: 20_000_000, devices: [Self.device()]))
        // 20 s at 100 ms + 0–10 ms advDelay: between 20 s / 110 ms and 20 s / 100 ms events.
        #expect((181...200).contains(r.counts.transmissions))
        // Only an event whose three copies straddle the scanner's channel switch (800 µs in
        // 100 ms) can be missed.
        #expect(r.hci.count <= r.counts.transmissions && r.hci.count >= r.counts.transmissions - 3)
        #expect(r.air.count == r.counts.transmissions)
        // Consecutive air sightings are one interval plus 0–10 ms apart.
        for (a, b) in zip(r.air, r.air.dropFirst()) {
            #expect((100_000...110_000).contains(b.timeMicros - a.timeMicros))
        }
    }

    @Test func nothingIsReceivedWhileTheMeanSignalIsBelowTheSensitivity() {
        // −110 dBm → −60 dBm over 0–10 s crosses −95 dBm at 3 s, and falls back through it at 17 s.
        let walk = Self.device(path: [(0, -110), (10_000_000, -60), (12_000_000, -60), (22_000_000, -110)])
        let r = Self.run(World(seed: 4, durationMicros: 25_000_000, devices: [walk]))
        #expect(!r.air.isEmpty)
        for s in r.air { #expect(s.timeMicros >= 3_000_000 && s.timeMicros <= 19_000_000) }
        #expect(r.air.first!.timeMicros < 3_120_000 && r.air.last!.timeMicros > 18_880_000)
        for s in r.hci { #expect(s.timeMicros >= 3_000_000 && s.timeMicros <= 19_001_000) }
    }

    @Test func aHalfDutyCycleHearsAboutHalfAndOnlyInsideWindows() {
        var world = World(seed: 5, durationMicros: 60_000_000, devices: [Self.device()])
        world.scanner.windowMicros = 50_000
        let r = Self.run(world)
        let ratio = Double(r.hci.count) / Double(r.counts.transmissions)
        #expect(ratio > 0.4 && ratio < 0.6, "\(ratio)")
        for s in r.hci {
            let heard = s.timeMicros - 500
            // Heard on one of the three copies, each inside its scan interval's window.
            let inWindow = (0..<3).contains { k in
                let tc = heard - Int64(k) * 400
                return tc >= 0 && tc % 100_000 < 50_000 && (tc / 100_000) % 3 == Int64(k)
            }
            #expect(inWindow || (heard % 100_000) < 50_000)
        }
    }

    @Test func lossRateDropsAboutThatFraction() {
        var world = World(seed: 6, durationMicros: 100_000_000, devices: [Self.device()])
        world.scanner.lossRate = 0.25
        let r = Self.run(world)
        #expect(r.hci.count + r.counts.lost <= r.counts.transmissions)
        #expect(r.hci.count + r.counts.lost >= r.counts.transmissions * 98 / 100)
        let lost = Double(r.counts.lost) / Double(r.counts.transmissions)
        #expect(lost > 0.2 && lost < 0.3, "\(lost)")
    }

    @Test func pausedScanningReportsNothingAndIsBracketedByScanEnableCommands() {
        var world = World(seed: 7, durationMicros: 10_000_000, devices: [Self.device()])
        world.scanner.pauses = [(3_000_000, 5_000_000)]
        let r = Self.run(world)
        for s in r.hci { #expect(s.timeMicros < 3_000_000 || s.timeMicros >= 5_000_000) }
        let commands = r.records.filter(\.sent)
        // Set Scan Parameters, Set Scan Enable(1), (0) at 3 s, (1) at 5 s.
        #expect(commands.map(\.timeMicros) == [0, 200, 3_000_000, 5_000_000])
        #expect(
            commands.map { Array($0.bytes.prefix(3)) } == [
                [1, 0x0B, 0x20], [1, 0x0C, 0x20], [1, 0x0C, 0x20], [1, 0x0C, 0x20],
            ])
        #expect(commands.map { $0.bytes[4] }.suffix(3) == [1, 0, 1])
        for view in [Synthesizer.View.hci, .air] {
            let times = r.records.filter { $0.view == view }.map(\.timeMicros)
            #expect(times == times.sorted(), "each view's records are in time order")
        }
    }

    @Test func batchedEventsHoldAtMostTheLimitWithinTheBatchWindow() {
        var world = World(
            seed: 8, durationMicros: 10_000_000,
            devices: (0..<6).map { Self.device("d\($0)", interval: 50_000) })
        world.scanner.batchMicros = 20_000
        world.scanner.maxReportsPerEvent = 3
        let r = Self.run(world)
        let byRecord = Dictionary(grouping: r.hci, by: \.record)
        #expect(byRecord.values.contains { $0.count == 3 })
        for (_, group) in byRecord { #expect(group.count <= 3) }
        // Each event's parameters fit in 255 bytes, and every report event decodes.
        for rec in r.records where !rec.sent && rec.bytes[1] == 0x3E {
            #expect(Int(rec.bytes[2]) == rec.bytes.count - 3)
        }
    }

    @Test func aLegacyScannerDoesNotSeeExtendedAdvertisingButAnExtendedOneReassemblesFragments() {
        let token = BeaconAdvertisingData.token([UInt8](repeating: 0xA1, count: 16), txPower: -12)
        let ext = Self.device(extended: true, frames: [World.Frame(kind: "token-v1", adData: token)])
        let legacy = Self.run(World(seed: 9, durationMicros: 5_000_000, devices: [ext]))
        #expect(legacy.hci.isEmpty && legacy.air.isEmpty && legacy.counts.transmissions > 40)
        var world = World(seed: 9, durationMicros: 5_000_000, devices: [ext])
        world.scanner.reports = .extended
        world.scanner.fragmentBytes = 10
        let r = Self.run(world)
        #expect(r.hci.count >= r.counts.transmissions - 2)
        #expect(r.counts.reports == r.hci.count * ((token.count + 9) / 10))
    }

    @Test func theSameSeedGivesTheSameRecordsAndAnotherSeedDoesNot() {
        var world = World(
            seed: 10, durationMicros: 5_000_000, devices: [Self.device(), Self.device("c", interval: 70_000)])
        world.devices[1].rssiNoiseDB = 4
        let a = Self.run(world).records.map(\.bytes), b = Self.run(world).records.map(\.bytes)
        world.seed = 11
        #expect(a == b)
        #expect(a != Self.run(world).records.map(\.bytes))
    }

    @Test func frameRotationSendsActiveFramesInTurn() {
        let f = [
            World.Frame(kind: "a", adData: [0x02, 0x01, 0x06]),
            World.Frame(kind: "b", adData: [0x02, 0x01, 0x1A], until: 2_000_000),
            World.Frame(kind: "c", adData: [0x02, 0x01, 0x02], from: 2_000_000),
        ]
        let r = Self.run(World(seed: 12, durationMicros: 4_000_000, devices: [Self.device(frames: f)]))
        let early = r.air.filter { $0.timeMicros < 2_000_000 }.map(\.frame)
        let late = r.air.filter { $0.timeMicros >= 2_000_000 }.map(\.frame)
        #expect(Set(early) == [0, 1] && Set(late) == [0, 2])
        for (x, y) in zip(early, early.dropFirst()) { #expect(x != y) }
    }
}

/// The product's packet builders agree with the test suite's independent builders
/// (FixtureEvents, written from the Core specification), and the beacon frames with
/// the published vectors of docs/spec/eddystone.md and docs/spec/ibeacon-altbeacon.md.
struct PacketBuilderTests {
    let address = BluetoothAddress("c4:7d:00:00:0d:01")!

    @Test func legacyAndExtendedReportEventsMatchTheFixtureBuilders() {
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE]
        let legacy = HCIPacketBuilder.advertisingReportEvent([
            .init(eventType: 3, addressType: .random, address: address, data: data, rssi: -70),
            .init(eventType: 0, addressType: .public, address: address, data: [], rssi: 127),
        ])
        #expect(
            legacy
                == FixtureEvents.legacyReportEvent([
                    FixtureEvents.legacyReport(
                        eventType: 3, addressType: 1, address: "c4:7d:00:00:0d:01", data: data, rssi: -70),
                    FixtureEvents.legacyReport(
                        eventType: 0, addressType: 0, address: "c4:7d:00:00:0d:01", data: [], rssi: 127),
                ]))
        var r = HCIPacketBuilder.ExtendedReport(
            eventType: 0x20, addressType: .random, address: address, rssi: -61, data: data)
        r.secondaryPHY = 1
        r.sid = 0
        #expect(
            HCIPacketBuilder.extendedAdvertisingReportEvent([r])
                == FixtureEvents.extendedReportEvent([
                    FixtureEvents.extendedReport(
                        eventType: 0x20, addressType: 1, address: "c4:7d:00:00:0d:01", secondaryPHY: 1, sid: 0,
                        rssi: -61, data: data)
                ]))
    }

    @Test func linkLayerPacketsCarryTheCRCTheSpecLFSRComputes() {
        let data: [UInt8] = [0x02, 0x01, 0x06]
        let built = LinkLayerPacketBuilder.advertisingPacket(
            pduType: 2, addressType: .random, address: address, data: data)
        #expect(built == FixtureEvents.llPacket(pduType: 2, txRandom: true, payload: address.littleEndianBytes + data))
        #expect(
            LinkLayerPacketBuilder.pseudoHeader(channelIndex: 38, signal: -50)
                == FixtureEvents.lePseudoHeader(rfChannel: 12, signal: -50, noise: 0, flags: 0x0C13))
    }

    @Test func beaconFramesMatchPublishedVectors() {
        // A full iBeacon advertisement derived from Apple's layout (docs/spec/ibeacon-altbeacon.md).
        #expect(
            Hex.encode(
                BeaconAdvertisingData.iBeacon(
                    uuidMajorMinor: Hex.decode("e2c56db5dffb48d2b060d0f5a71096e000010002")!, measuredPower: -59))
                == "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
        // The Android Beacon Library's AltBeacon vector (docs/spec/ibeacon-altbeacon.md), its manufacturer-data
        // structure (our reserved byte is 0, theirs 9).
        let alt = BeaconAdvertisingData.altBeacon(
            manufacturer: 0x0118, beaconID: Hex.decode("2f234454cf6d4a0fadf2f4911ba9ffa600010002")!, referenceRSSI: -59)
        #expect(
            Hex.encode(Array(alt.dropFirst(3).dropLast())) == "1bff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c5")
        // Eddystone-URL scheme and expansion codes (docs/spec/eddystone.md), worked by hand.
        #expect(
            BeaconAdvertisingData.encodeURL("https://www.example.com/a") == [0x01] + Array("example".utf8) + [
                0x00, 0x61,
            ])
        #expect(BeaconAdvertisingData.encodeURL("http://goo.gl/S6zT6P") == [0x02] + Array("goo.gl/S6zT6P".utf8))
        #expect(BeaconAdvertisingData.encodeURL("ftp://x") == nil)
        #expect(BeaconAdvertisingData.encodeURL("https://" + String(repeating: "a", count: 18)) == nil)
        // Eddystone-TLM (docs/spec/eddystone.md): 25.5 °C is 0x1980 in 8.8; the frame decodes back.
        let tlm = BeaconAdvertisingData.eddystoneTLM(
            batteryMillivolts: 3000, temperature88: 0x1980, advertisingCount: 7, uptimeTenths: 10)
        #expect(Hex.encode(Array(tlm.suffix(14))) == "20000bb81980000000070000000a")
    }

    @Test func builtFramesDecodeAsTheirBeacons() throws {
        let uid = BeaconAdvertisingData.eddystoneUID(
            namespace: Array(repeating: 0xAB, count: 10), instance: [1, 2, 3, 4, 5, 6], txPower: -18)
        let contents = AdvertisingDataDecoder.decode(uid[...])
        guard case .eddystone(.uid(let u))? = contents.beacons.first else {
            Issue.record("\(contents.beacons)")
            return
        }
        #expect(u.txPowerDBm == -18 && u.instance == [1, 2, 3, 4, 5, 6])
    }
}
