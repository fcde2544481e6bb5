import NearbyBytes
import NearbyCapture
import NearbyTestSupport
import Testing

/// Every strict prefix of a valid record fails cleanly, with the code and offset the
/// hand-written field map gives, and emits nothing.
@Suite struct RecordDripFeedTests {
    func check(
        _ record: [UInt8], _ encapsulation: Encapsulation, map: FieldMap, layers: Set<DecodeError.Layer>,
        override: (Int) -> (DecodeError.Code, Int)? = { _ in nil }
    ) {
        #expect(map.end == record.count)
        for n in 0..<record.count {
            let (ads, outcome) = decodeRecord(Array(record[0..<n]), encapsulation)
            #expect(ads.isEmpty, "prefix \(n) emitted")
            guard case .malformed(let e) = outcome else {
                Issue.record("prefix \(n): \(outcome)")
                continue
            }
            let want = override(n) ?? map.expectedFailure(cutAt: n)
            #expect(
                e.code == want.0 && e.offset == want.1 && layers.contains(e.layer),
                "prefix \(n): got \(e.key) at \(e.offset), want \(want.0) at \(want.1)")
        }
    }

    /// H4 indicator, event code, parameter length, parameters.
    func eventMap(_ event: [UInt8]) -> FieldMap {
        var m = FieldMap()
        m.fixed(1)
        m.fixed(1)
        m.lengthPrefixed(event.count - 3)
        return m
    }

    @Test func hciEventRecord() {
        let e = ReferenceVectors.twoReportEvent
        check(e, .hexText, map: eventMap(e), layers: [.h4, .hciEvent])
    }

    @Test func linkType201Record() {
        let r = ReferenceVectors.twoReportPcap201Record
        var m = FieldMap()
        m.fixed(4)
        m.fixed(1)
        m.fixed(1)
        m.lengthPrefixed(r.count - 7)
        check(r, .pcap(.bluetoothHCIH4WithPHDR), map: m, layers: [.h4PseudoHeader, .h4, .hciEvent])
    }

    /// Drip-feeds the LE Meta parameters after the subevent code, with the event length
    /// kept consistent, so that the report decoder itself meets the cut.
    func checkReports(_ event: [UInt8], map: FieldMap, layer: DecodeError.Layer) {
        let params = Array(event[4...])
        #expect(map.end == params.count)
        for n in 0..<params.count {
            let cut = FixtureEvents.leMeta(event[3], Array(params[0..<n]))
            let (_, outcome) = decodeRecord(cut, .hexText)
            guard case .malformed(let e) = outcome else {
                Issue.record("prefix \(n): \(outcome)")
                continue
            }
            let want = map.expectedFailure(cutAt: n)
            #expect(
                e.code == want.code && e.offset - 4 == want.offset && e.layer == layer,
                "prefix \(n): got \(e.key) at \(e.offset - 4), want \(want.code) at \(want.offset)")
        }
    }

    @Test func legacyAdvertisingReports() {
        var m = FieldMap()
        m.fixed(1)
        for length in [31, 30] {
            [1, 1, 6].forEach { m.fixed($0) }
            m.lengthPrefixed(length)
            m.fixed(1)
        }
        checkReports(ReferenceVectors.twoReportEvent, map: m, layer: .advertisingReport)
    }

    @Test func extendedAdvertisingReport() {
        var m = FieldMap()
        m.fixed(1)
        [2, 1, 6, 1, 1, 1, 1, 1, 2, 1, 6].forEach { m.fixed($0) }
        m.lengthPrefixed(21)
        checkReports(ReferenceVectors.eidExtendedReportEvent, map: m, layer: .extendedAdvertisingReport)
    }

    @Test func directedAdvertisingReport() {
        var m = FieldMap()
        m.fixed(1)
        [1, 1, 6, 1, 6, 1].forEach { m.fixed($0) }
        checkReports(
            FixtureEvents.directedReportEvent(
                address: "c0:ff:ee:00:00:05", directAddress: "00:11:22:33:44:55", rssi: -80),
            map: m, layer: .directedAdvertisingReport)
    }

    func airMap(start: Int, payload: Int) -> FieldMap {
        var m = FieldMap(start: start)
        m.fixed(4)
        m.fixed(1)
        m.lengthPrefixed(payload)
        m.fixed(3)
        return m
    }

    @Test func linkType251Packet() {
        let p = ReferenceVectors.eidLL251Packet
        check(p, .pcap(.bluetoothLELL), map: airMap(start: 0, payload: p.count - 9), layers: [.linkLayer])
    }

    @Test func linkType256Record() {
        let r = ReferenceVectors.eidLL256Record
        var m = FieldMap()
        [1, 1, 1, 1, 4, 2].forEach { m.fixed($0) }
        let air = airMap(start: 10, payload: r.count - 19)
        for f in air.fields {
            if case .declared(let at) = f.kind { m.declared(f.length, lengthAt: at) } else { m.fixed(f.length) }
        }
        check(r, .pcap(.bluetoothLELLWithPHDR), map: m, layers: [.lePseudoHeader, .linkLayer])
    }

    @Test func nordicRecord() {
        let r = FixtureEvents.nordicRecord(
            version: 2, packetID: 0x06, channel: 37, rssiMagnitude: 60, packet: ReferenceVectors.eidLL251Packet)
        var m = FieldMap()
        [1, 2, 1, 2, 1].forEach { m.fixed($0) }
        m.fixed(r.count - 7)
        // Once the header is whole, the cut shows as payload length ≠ record length.
        check(r, .pcap(.nordicBLE), map: m, layers: [.nordicSniffer]) { n in n >= 7 ? (.lengthMismatch, 1) : nil }
    }
}
