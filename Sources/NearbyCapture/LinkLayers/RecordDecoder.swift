import NearbyBytes

/// Decodes one capture record through its link layer into advertisements.
///
/// Only what the controller received counts: HCI events (advertising reports) and
/// advertising-channel PDUs. HCI commands carry the host's own advertising data or
/// scan filters and are ignored, whatever bytes they hold (H4-3). The H4 packet indicator (or
/// the btsnoop flags / monitor opcode where there is none) decides the packet type.
public struct RecordDecoder: Sendable {
    public private(set) var reassembler: ExtendedAdvertisingReassembler

    public init(maximumPendingChains: Int = 16) {
        reassembler = ExtendedAdvertisingReassembler(maximumPendingChains: maximumPendingChains)
    }

    /// Decodes `record`, building each advertisement it completes in `slot` and calling
    /// `emitted` once it is there, and says how the record is to be counted.
    ///
    /// Every field of the slot is written before each call (what a consumer leaves there
    /// is overwritten); the consumer reads the advertisement in place, or takes it. Built
    /// where the consumer reads it, an advertisement is never copied on its way out.
    package mutating func decode(
        _ record: borrowing RecordView, building slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void
    ) -> RecordOutcome {
        let context = RecordContext(index: record.metadata.index, timestampMicros: record.metadata.timestampMicros)
        do {
            return try decodeThrowing(record, context: context, slot: slot, emitted: emitted)
        } catch {
            return .malformed(error)
        }
    }

    /// Decodes `record`: how it is to be counted, and the advertisements it completes, in
    /// order.
    public mutating func decode(_ record: CaptureRecord) -> (outcome: RecordOutcome, advertisements: [Advertisement]) {
        var advertisements: [Advertisement] = []
        let outcome = Self.withSlot { slot in
            record.withView { decode($0, building: slot) { advertisements.append(slot.pointee) } }
        }
        return (outcome, advertisements)
    }

    /// Emits the extended-report chains still open at the end of a capture, built in `slot`
    /// as `decode(_:building:emitted:)` builds them.
    package mutating func finish(building slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void) {
        reassembler.finish(into: slot, emitted: emitted)
    }

    /// The advertisements of the extended-report chains still open at the end of a capture.
    public mutating func finish() -> [Advertisement] {
        var advertisements: [Advertisement] = []
        Self.withSlot { slot in finish(building: slot) { advertisements.append(slot.pointee) } }
        return advertisements
    }

    /// Runs `body` with an advertisement slot on the stack (holding `Advertisement()`), for
    /// `decode(_:building:emitted:)` and `finish(building:emitted:)`.
    package static func withSlot<R, E: Error>(
        _ body: (UnsafeMutablePointer<Advertisement>) throws(E) -> R
    ) throws(E) -> R {
        try withUnsafeTemporaryAllocation(of: Advertisement.self, capacity: 1) { buffer throws(E) in
            let slot = buffer.baseAddress!
            slot.initialize(to: Advertisement())
            defer { slot.deinitialize(count: 1) }
            return try body(slot)
        }
    }

    @inline(__always)
    private mutating func decodeThrowing(
        _ record: borrowing RecordView, context: RecordContext, slot: UnsafeMutablePointer<Advertisement>,
        emitted: () -> Void
    ) throws(DecodeError) -> RecordOutcome {
        // One cursor walks the record through every layer (each layer names itself in the
        // cursor's errors), so no layer copies the bytes on.
        var c = ByteCursor(record.bytes, layer: .h4)
        switch record.metadata.encapsulation {
        case .hexText:
            return try decodeH4(&c, context: context, slot: slot, emitted: emitted)
        case .btsnoop(let datalink, let flags):
            switch datalink {
            case .hciUART:  // H4-7
                return try decodeH4(&c, context: context, slot: slot, emitted: emitted)
            case .hciUnencapsulated:
                // H4-9: flags bit 1: command/event (1) or data (0); bit 0: received (1) or sent (0).
                guard flags & 0x02 != 0 else { return .ignored(.hciACLData) }
                guard flags & 0x01 != 0 else { return .ignored(.hciCommand) }
                return try decodeEvent(&c, context: context, slot: slot, emitted: emitted)
            case .linuxMonitor:  // MONITOR-2: the opcode is the flags' low 16 bits.
                return try decodeMonitor(
                    opcode: UInt16(truncatingIfNeeded: flags), &c, context: context, slot: slot, emitted: emitted)
            default:  // BTSNOOP-2
                return .ignored(.unsupportedEncapsulation)
            }
        case .pcap(let linkType):
            switch linkType {
            case .bluetoothHCIH4:  // H4-7
                return try decodeH4(&c, context: context, slot: slot, emitted: emitted)
            case .bluetoothHCIH4WithPHDR:
                c.layer = .h4PseudoHeader
                // H4-8: the direction is read past; the H4 indicator says what the packet is.
                _ = try c.readUInt32BE("direction")
                return try decodeH4(&c, context: context, slot: slot, emitted: emitted)
            case .bluetoothLinuxMonitor:  // MONITOR-1
                c.layer = .linuxMonitor
                _ = try c.readUInt16BE("adapter index")
                let opcode = try c.readUInt16BE("opcode")
                return try decodeMonitor(opcode: opcode, &c, context: context, slot: slot, emitted: emitted)
            case .bluetoothLELL:  // LL-1, LL-17: no RSSI, no channel
                c.layer = .h4PseudoHeader
                return try AdvertisingPDU.decode(
                    &c, context: context, channelIndex: nil, rssi: nil,
                    crcStatus: .unchecked, into: slot, emitted: emitted)
            case .bluetoothLELLWithPHDR:  // LL-13
                c.layer = .h4PseudoHeader
                let header = try LEPseudoHeader(&c)
                return try AdvertisingPDU.decode(
                    &c, context: context, channelIndex: header.channelIndex,
                    rssi: header.signalPowerDBm, crcStatus: header.crcStatus, into: slot, emitted: emitted)
            case .nordicBLE:
                c.layer = .h4PseudoHeader
                let header = try NordicSnifferHeader(&c)
                // NRF-7: version 3 packet ids; NRF-5, NRF-8: the sniffer's CRC flag and layout.
                if header.isDataChannelPacket { return .ignored(.llDataChannel) }
                if header.isControlPacket { return .ignored(.nordicControl) }
                return try AdvertisingPDU.decode(
                    &c, context: context, channelIndex: header.channelIndex,
                    rssi: header.rssiDBm, crcStatus: header.crcStatus,
                    crcLayout: .registerValue, into: slot, emitted: emitted)
            default:  // PCAP-3
                return .ignored(.unsupportedEncapsulation)
            }
        }
    }

    /// An H4 packet: indicator byte, then the HCI packet (H4-1 to H4-6).
    @inline(__always)
    private mutating func decodeH4(
        _ c: inout ByteCursor, context: RecordContext, slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void
    ) throws(DecodeError) -> RecordOutcome {
        c.layer = .h4
        let indicatorOffset = c.readerIndex
        switch HCIPacketType(rawValue: try c.readUInt8("packet indicator")) {
        case .event: return try decodeEvent(&c, context: context, slot: slot, emitted: emitted)
        case .command: return .ignored(.hciCommand)
        case .aclData: return .ignored(.hciACLData)
        case .scoData: return .ignored(.hciSCOData)
        case .isoData: return .ignored(.hciISOData)
        case .vendor: return .ignored(.hciVendorPacket)
        case let other:
            throw c.error(
                .invalidValue, at: indicatorOffset,
                "H4 packet indicator \(Hex.code(other.rawValue, digits: 2)) is unknown")
        }
    }

    /// A Linux monitor record (btsnoop 2001, LINKTYPE 254): opcode 3 is an HCI event (MONITOR-3,
    /// MONITOR-4).
    @inline(__always)
    private mutating func decodeMonitor(
        opcode: UInt16, _ c: inout ByteCursor, context: RecordContext, slot: UnsafeMutablePointer<Advertisement>,
        emitted: () -> Void
    ) throws(DecodeError) -> RecordOutcome {
        switch opcode {
        case 2: return .ignored(.hciCommand)
        case 3: return try decodeEvent(&c, context: context, slot: slot, emitted: emitted)
        case 4, 5: return .ignored(.hciACLData)
        case 6, 7: return .ignored(.hciSCOData)
        case 18, 19: return .ignored(.hciISOData)
        default: return .ignored(.monitorNonHCI)
        }
    }

    /// An HCI event without indicator, from the cursor to the end of the record: its header is
    /// checked for every event (HCI-ADV-5), then LE Meta subevents are chosen (HCI-ADV-6).
    @inline(__always)
    private mutating func decodeEvent(
        _ c: inout ByteCursor, context: RecordContext, slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void
    ) throws(DecodeError) -> RecordOutcome {
        guard try HCIEvent.readHeader(&c) == .leMeta else { return .ignored(.hciOtherEvent) }
        let subevent = LEMetaSubevent(rawValue: try c.readUInt8("Subevent_Code"))
        switch subevent {
        case .advertisingReport:
            try LEAdvertisingReport.decode(&c, .undirected, context: context, into: slot, emitted: emitted)
        case .extendedAdvertisingReport:
            try LEExtendedAdvertisingReport.decode(
                &c, context: context, reassembler: &reassembler, into: slot, emitted: emitted)
        case .directedAdvertisingReport:
            try LEAdvertisingReport.decode(&c, .directed, context: context, into: slot, emitted: emitted)
        default:
            return .ignored(.leMetaOtherSubevent)
        }
        return .decoded
    }
}
