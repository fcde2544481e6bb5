import NearbyCapture
import NearbyTestSupport
import Testing

@testable import NearbyLive

/// MONITOR-5: monitor-channel packets (BlueZ `src/shared/btsnoop.h`: opcode, index, length, each
/// little-endian 16-bit; opcode 3 = HCI event received) become LINKTYPE 254 records
/// (tcpdump.org: adapter and opcode, big-endian) that the decoder reads.
@Suite struct MonitorRecordTests {
    @Test func anEventOnController2BecomesARecordTheDecoderReads() {
        let event = Array(
            FixtureEvents.legacyReportEvent([
                FixtureEvents.legacyReport(
                    eventType: 3, addressType: 1, address: "c4:7d:00:00:0b:03", data: ReferenceVectors.iBeaconAdvert,
                    rssi: -40)
            ]).dropFirst())  // the monitor carries no H4 indicator
        let packet: [UInt8] = [0x03, 0x00, 0x02, 0x00, UInt8(event.count), 0x00] + event
        let bytes = LiveCapture.monitorRecord(packet)
        #expect(Array(bytes.prefix(4)) == [0x00, 0x02, 0x00, 0x03])
        #expect(Array(bytes.dropFirst(4)) == event)
        var decoder = RecordDecoder()
        let record = CaptureRecord(
            index: 1, timestampMicros: 0, encapsulation: .pcap(.bluetoothLinuxMonitor), bytes: bytes[...])
        let (outcome, advertisements) = decoder.decode(record)
        #expect(outcome == .decoded)
        #expect(advertisements.map(\.address.description) == ["c4:7d:00:00:0b:03"])
    }

    @Test func aPacketShorterThanItsHeaderIsKeptAsItCame() {
        #expect(LiveCapture.monitorRecord([0x03, 0x00, 0x02]) == [0x03, 0x00, 0x02])
    }
}
