import NearbyBytes
import NearbyCapture
import NearbyTestSupport
import Testing

/// Decodes one record and collects what it emits.
func decodeRecord(
    _ bytes: [UInt8], _ encapsulation: Encapsulation, decoder: inout RecordDecoder
) -> ([Advertisement], RecordOutcome) {
    let (outcome, advertisements) = decoder.decode(
        CaptureRecord(index: 1, timestampMicros: 0, encapsulation: encapsulation, bytes: bytes[...]))
    return (advertisements, outcome)
}

func decodeRecord(_ bytes: [UInt8], _ encapsulation: Encapsulation) -> ([Advertisement], RecordOutcome) {
    var decoder = RecordDecoder()
    return decodeRecord(bytes, encapsulation, decoder: &decoder)
}

@Suite struct BLECRC24Tests {
    @Test func theFormatsVectorCRCIsReproduced() {
        let packet = ReferenceVectors.eidLL251Packet
        let pdu = packet[4..<(packet.count - 3)]
        #expect(BLECRC24.compute(pdu) == 0x9380A0)  // on air: a0 80 93
    }

    @Test func theReflectedComputationAgreesWithTheSpecsShiftRegister() {
        var seed: UInt64 = 0x1234_5678
        for length in [0, 1, 2, 7, 31, 39] {
            let pdu = (0..<length).map { _ -> UInt8 in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: seed >> 33)
            }
            let reference = FixtureEvents.onAirCRC(pdu)
            let value = UInt32(reference[0]) | UInt32(reference[1]) << 8 | UInt32(reference[2]) << 16
            #expect(BLECRC24.compute(pdu) == value, "length \(length)")
        }
    }
}

@Suite struct HCIReportTests {
    @Test func theTwoReportEventGivesTwoAdvertisementsInOrder() {
        let (ads, outcome) = decodeRecord(ReferenceVectors.twoReportEvent, .hexText)
        #expect(outcome == .decoded)
        #expect(ads.map(\.address.description) == ["c0:ff:ee:00:00:01", "00:11:22:33:44:55"])
        #expect(ads.map(\.addressType) == [.random, .public])
        #expect(ads.map(\.rssiDBm) == [-60, -72])
        #expect(ads.map(\.eventTypeName) == ["ADV_NONCONN_IND", "ADV_NONCONN_IND"])
        #expect(ads.map { $0.data.map(Array.init) } == [ReferenceVectors.uidAdvert, ReferenceVectors.iBeaconAdvert])
    }

    /// HCI-EXT-1, HCI-EXT-3, HCI-EXT-14, HCI-EXT-16.
    @Test func theExtendedReportVectorDecodes() throws {
        let (ads, outcome) = decodeRecord(ReferenceVectors.eidExtendedReportEvent, .pcap(.bluetoothHCIH4))
        #expect(outcome == .decoded)
        let a = try #require(ads.first)
        #expect(ads.count == 1)
        #expect(a.address.description == "c0:ff:ee:00:00:02")
        #expect(a.addressType == .random)
        #expect(a.eventTypeRaw == 0x0010)
        #expect(a.eventTypeName == "ADV_NONCONN_IND")
        #expect(a.rssiDBm == -55)
        #expect(a.txPowerDBm == nil)
        #expect(
            a.extended
                == ExtendedReportDetails(
                    primaryPHY: 1, secondaryPHY: 0, sid: 0xFF, periodicAdvertisingInterval: 0, dataStatus: 0))
        #expect(a.data.map(Array.init) == ReferenceVectors.eidAdvert)
    }

    @Test func reservedEventTypeBitsAreKept() throws {
        let event = FixtureEvents.extendedReportEvent([
            FixtureEvents.extendedReport(
                eventType: 0x8001, addressType: 1, address: "1f:fe:d9:cf:19:5d", rssi: -80, data: [0x02, 0x01, 0x06])
        ])
        let (ads, _) = decodeRecord(event, .hexText)
        #expect(ads.first?.eventTypeRaw == 0x8001)
        #expect(ads.first?.eventTypeName == "EXT_ADV")
    }

    @Test func chainedFragmentsAreReassembled() throws {
        var decoder = RecordDecoder()
        let data = ReferenceVectors.uidAdvert
        let parts = [Array(data[0..<10]), Array(data[10..<25]), Array(data[25...])]
        var emitted: [Advertisement] = []
        for (i, part) in parts.enumerated() {
            let status: UInt16 = i < 2 ? 0x0020 : 0x0000
            let event = FixtureEvents.extendedReportEvent([
                FixtureEvents.extendedReport(
                    eventType: status, addressType: 1, address: "c0:ff:ee:00:00:04", sid: 3, rssi: Int8(-60 - i),
                    data: part)
            ])
            let (ads, outcome) = decodeRecord(event, .hexText, decoder: &decoder)
            #expect(outcome == .decoded)
            emitted += ads
        }
        let a = try #require(emitted.first)
        #expect(emitted.count == 1)
        #expect(a.data.map(Array.init) == data)
        #expect(a.extended?.fragments == 3)
        #expect(a.extended?.truncated == false)
        #expect(a.rssiDBm == -62)
    }

    @Test func aTruncatedChainIsEmittedAsTruncated() {
        var decoder = RecordDecoder()
        let first = FixtureEvents.extendedReportEvent([
            FixtureEvents.extendedReport(
                eventType: 0x0020, addressType: 1, address: "c0:ff:ee:00:00:04", sid: 3, rssi: -60, data: [0x02, 0x01])
        ])
        let last = FixtureEvents.extendedReportEvent([
            FixtureEvents.extendedReport(
                eventType: 0x0040, addressType: 1, address: "c0:ff:ee:00:00:04", sid: 3, rssi: -61, data: [0x06])
        ])
        _ = decodeRecord(first, .hexText, decoder: &decoder)
        let (ads, _) = decodeRecord(last, .hexText, decoder: &decoder)
        #expect(ads.count == 1)
        #expect(ads.first?.extended?.truncated == true)
        #expect(ads.first?.extended?.dataStatus == 2)
        #expect(ads.first?.data.map(Array.init) == [0x02, 0x01, 0x06])
    }

    @Test func aChainOpenAtTheEndIsFlushedByFinish() {
        var decoder = RecordDecoder()
        let first = FixtureEvents.extendedReportEvent([
            FixtureEvents.extendedReport(
                eventType: 0x0020, addressType: 1, address: "c0:ff:ee:00:00:04", sid: 3, rssi: -60, data: [0x02, 0x01])
        ])
        let (ads, _) = decodeRecord(first, .hexText, decoder: &decoder)
        #expect(ads.isEmpty)
        let flushed = decoder.finish()
        #expect(flushed.count == 1)
        #expect(flushed.first?.extended?.truncated == true)
        #expect(flushed.first?.extended?.dataStatus == 1)
    }

    @Test func tooManyOpenChainsPushOutTheOldest() {
        var decoder = RecordDecoder(maximumPendingChains: 2)
        var emitted: [Advertisement] = []
        for i in 0..<3 {
            let event = FixtureEvents.extendedReportEvent([
                FixtureEvents.extendedReport(
                    eventType: 0x0020, addressType: 1, address: "c0:ff:ee:00:00:0\(i)", sid: 1, rssi: -60, data: [0x02])
            ])
            emitted += decodeRecord(event, .hexText, decoder: &decoder).0
        }
        #expect(emitted.map(\.address.description) == ["c0:ff:ee:00:00:00"])
        #expect(decoder.reassembler.pendingChainCount == 2)
    }

    @Test func eachAdvertisementIsBuiltWholeInTheSlotBeforeItIsEmitted() {
        // Every field is written for each advertisement: nothing left in the slot (here an
        // extended, directed advertisement with data) survives into the next one.
        var decoder = RecordDecoder()
        var seen: [Advertisement] = []
        let outcome = RecordDecoder.withSlot { slot in
            slot.pointee = Advertisement(
                record: 99, timestampMicros: 5, source: .hciExtendedAdvertisingReport, eventTypeRaw: 0x13,
                address: BluetoothAddress(rawValue: 0xFFFF_FFFF_FFFF), addressType: .random, rssiDBm: -1,
                txPowerDBm: 4, channelIndex: 39, data: [0x02, 0x01, 0x06],
                extended: ExtendedReportDetails(
                    primaryPHY: 1, secondaryPHY: 2, sid: 3, periodicAdvertisingInterval: 4, dataStatus: 0),
                directAddress: BluetoothAddress(rawValue: 1), directAddressType: .public)
            return ReferenceVectors.twoReportEvent.withUnsafeBytes { raw in
                decoder.decode(
                    RecordView(
                        RecordMetadata(
                            index: 1, timestampMicros: 7, encapsulation: .hexText, originalLength: raw.count),
                        bytes: Span(_unsafeBytes: raw)),
                    building: slot
                ) { seen.append(slot.pointee) }
            }
        }
        #expect(outcome == .decoded)
        // ReferenceVectors.twoReportEvent: two legacy reports (HCI-ADV-7).
        #expect(seen.map(\.address.description) == ["c0:ff:ee:00:00:01", "00:11:22:33:44:55"])
        #expect(seen.map(\.rssiDBm) == [-60, -72])
        #expect(seen.map { $0.data.map(Array.init) } == [ReferenceVectors.uidAdvert, ReferenceVectors.iBeaconAdvert])
        for a in seen {
            #expect(a.record == 1 && a.timestampMicros == 7 && a.source == .hciAdvertisingReport)
            #expect(a.extended == nil && a.directAddress == nil && a.directAddressType == nil)
            #expect(a.txPowerDBm == nil && a.channelIndex == nil)
        }
    }

    @Test func aChainPushedOutThroughTheSlotLeavesTheNewChainItsOwnHeader() {
        // The third chain's report is in the slot when the oldest chain is written over it.
        var decoder = RecordDecoder(maximumPendingChains: 2)
        var emitted: [String] = []
        RecordDecoder.withSlot { slot in
            for i in 0..<3 {
                let event = FixtureEvents.extendedReportEvent([
                    FixtureEvents.extendedReport(
                        eventType: 0x0020, addressType: 1, address: "c0:ff:ee:00:00:0\(i)", sid: 1, rssi: -60,
                        data: [0x02, UInt8(i)])
                ])
                _ = CaptureRecord(index: i + 1, timestampMicros: 0, encapsulation: .hexText, bytes: event[...])
                    .withView {
                        decoder.decode($0, building: slot) {
                            emitted.append("\(slot.pointee.address) \(Array(slot.pointee.data ?? []))")
                        }
                    }
            }
            decoder.finish(building: slot) {
                emitted.append("\(slot.pointee.address) \(Array(slot.pointee.data ?? []))")
            }
        }
        #expect(
            emitted == [
                "c0:ff:ee:00:00:00 [2, 0]", "c0:ff:ee:00:00:01 [2, 1]", "c0:ff:ee:00:00:02 [2, 2]",
            ])
    }

    @Test func directedReportsAreAdvertisementsWithoutData() {
        let (ads, outcome) = decodeRecord(
            FixtureEvents.directedReportEvent(
                address: "c0:ff:ee:00:00:05", directAddress: "00:11:22:33:44:55", rssi: -80), .hexText)
        #expect(outcome == .decoded)
        #expect(ads.first?.data == nil)
        #expect(ads.first?.directAddress?.description == "00:11:22:33:44:55")
    }

    @Test func hostCommandsCarryingAdvertisingDataAreIgnored() {
        let (ads, outcome) = decodeRecord(
            FixtureEvents.setAdvertisingDataCommand(ReferenceVectors.iBeaconAdvert), .hexText)
        #expect(ads.isEmpty)
        #expect(outcome == .ignored(.hciCommand))
    }

    @Test func packetTypeComesFromTheFlagsInH1Btsnoop() {
        let event = Array(ReferenceVectors.twoReportEvent.dropFirst())
        #expect(decodeRecord(event, .btsnoop(.hciUnencapsulated, flags: 3)).0.count == 2)
        #expect(decodeRecord(event, .btsnoop(.hciUnencapsulated, flags: 2)).1 == .ignored(.hciCommand))
        #expect(decodeRecord(event, .btsnoop(.hciUnencapsulated, flags: 1)).1 == .ignored(.hciACLData))
        #expect(decodeRecord(event, .btsnoop(.linuxMonitor, flags: 3)).0.count == 2)
        #expect(decodeRecord(event, .btsnoop(.linuxMonitor, flags: 2)).1 == .ignored(.hciCommand))
    }
}

@Suite struct AirPacketTests {
    @Test func linkType251VectorDecodes() throws {
        let (ads, outcome) = decodeRecord(ReferenceVectors.eidLL251Packet, .pcap(.bluetoothLELL))
        #expect(outcome == .decoded)
        let a = try #require(ads.first)
        #expect(a.address.description == "c0:ff:ee:00:00:02")
        #expect(a.addressType == .random)
        #expect(a.eventTypeName == "ADV_NONCONN_IND")
        #expect(a.rssiDBm == nil)
        #expect(a.data.map(Array.init) == ReferenceVectors.eidAdvert)
    }

    @Test func linkType256VectorGivesSignalAndChannelIndex() throws {
        let (ads, outcome) = decodeRecord(ReferenceVectors.eidLL256Record, .pcap(.bluetoothLELLWithPHDR))
        #expect(outcome == .decoded)
        #expect(ads.first?.rssiDBm == -55)
        #expect(ads.first?.channelIndex == 35)  // RF channel 37 is data channel index 35
    }

    @Test(
        "RF channels map to channel indices",
        arguments: [(UInt8(0), UInt8(37)), (1, 0), (11, 10), (12, 38), (13, 11), (38, 36), (39, 39)])
    func rfChannelsMapToIndices(rf: UInt8, index: UInt8) {
        #expect(LEPseudoHeader.channelIndex(rfChannel: rf) == index)
    }

    @Test func aCorruptedByteFailsTheCRC() {
        var packet = ReferenceVectors.eidLL251Packet
        packet[20] ^= 0x01
        let (ads, outcome) = decodeRecord(packet, .pcap(.bluetoothLELL))
        #expect(ads.isEmpty)
        guard case .malformed(let e) = outcome else {
            Issue.record("not malformed")
            return
        }
        #expect(e.code == .crcMismatch)
        #expect(e.offset == packet.count - 3)
    }

    @Test func aSnifferReportedCRCFailureIsMalformed() {
        var record = ReferenceVectors.eidLL256Record
        record[8] = 0x17
        record[9] = 0x04  // CRC checked, not valid
        #expect(
            decodeRecord(record, .pcap(.bluetoothLELLWithPHDR)).1
                == .malformed(DecodeError(.linkLayer, .crcFailed, at: 10, "the capture device reports a CRC error")))
    }

    @Test("nRF Sniffer records of versions 2 and 3 decode", arguments: [UInt8(2), 3])
    func nordicRecordsDecode(version: UInt8) throws {
        let record = FixtureEvents.nordicRecord(
            version: version, packetID: version == 3 ? 0x02 : 0x06, channel: 38, rssiMagnitude: 61,
            packet: ReferenceVectors.eidLL251Packet)
        let (ads, outcome) = decodeRecord(record, .pcap(.nordicBLE))
        #expect(outcome == .decoded)
        #expect(ads.first?.rssiDBm == -61)
        #expect(ads.first?.channelIndex == 38)
        #expect(ads.first?.data.map(Array.init) == ReferenceVectors.eidAdvert)
    }

    @Test func scanResponsesCarryTheAdvertiserAddress() {
        let packet = FixtureEvents.llPacket(
            pduType: 4, txRandom: false,
            payload: FixtureEvents.address("00:11:22:33:44:55") + ReferenceVectors.iBeaconAdvert)
        let (ads, _) = decodeRecord(packet, .pcap(.bluetoothLELL))
        #expect(ads.first?.isScanResponse == true)
        #expect(ads.first?.address.description == "00:11:22:33:44:55")
    }

    @Test func dataChannelAndScanRequestPacketsAreIgnored() {
        #expect(
            decodeRecord(
                FixtureEvents.llPacket(pduType: 1, txRandom: false, payload: [], accessAddress: 0x50654A41),
                .pcap(.bluetoothLELL)
            ).1 == .ignored(.llDataChannel))
        let req = FixtureEvents.llPacket(
            pduType: 3, txRandom: true,
            payload: FixtureEvents.address("5a:00:00:00:00:01") + FixtureEvents.address("00:11:22:33:44:55"))
        #expect(decodeRecord(req, .pcap(.bluetoothLELL)).1 == .ignored(.llScanRequest))
    }
}
