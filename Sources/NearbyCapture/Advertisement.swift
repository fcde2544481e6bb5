import NearbyBytes

/// One advertisement that a scanner received: what an HCI advertising report or an
/// advertising-channel link-layer PDU says, before its AD data is interpreted.
///
/// Scan responses are advertisements of their own (`isScanResponse`), carrying the
/// advertiser's address, so that a beacon frame in a SCAN_RSP is attributed to it.
public struct Advertisement: Sendable {
    // The stored properties are ordered so that the small ones fill the gaps the large ones
    // leave: the advertisement is at most 128 bytes (`AdvertisementLayoutTests`).

    /// 1-based number of the record that completed this advertisement (as Wireshark
    /// numbers frames; lines for hex text).
    public var record: Int
    /// Receive time in microseconds since the Unix epoch; nil when the capture has none.
    public var timestampMicros: Int64?
    /// Received signal strength, dBm (−127…+20); nil when the capture does not say
    /// (HCI value 127, or no RSSI field).
    public var rssiDBm: Int8?
    /// Transmit power that the extended report states, dBm (−127…+20); nil when absent.
    public var txPowerDBm: Int8?
    /// Link-layer channel index 0–39 (37–39 advertising) when the capture records it.
    public var channelIndex: UInt8?
    public var addressType: AddressType
    public var source: AdvertisementSource
    public var address: BluetoothAddress
    /// The target address of a directed advertisement.
    public var directAddress: BluetoothAddress?
    public var directAddressType: AddressType?
    /// The raw event type: legacy report Event_Type (0–4), extended report Event_Type
    /// (16 bits, reserved bits included), or link-layer PDU type (0–15).
    public var eventTypeRaw: UInt16
    /// The AD data; nil for PDUs that carry none (ADV_DIRECT_IND, directed reports).
    /// Indices are offsets in the record (or in the reassembled data for chained reports).
    /// Held inline up to 32 bytes (`InlineBytes`): an advertisement does not keep the
    /// record's buffer, and copying one costs no reference count.
    public var data: InlineBytes?
    /// Details of LE Extended Advertising Reports.
    public var extended: ExtendedReportDetails?

    public init(
        record: Int, timestampMicros: Int64?, source: AdvertisementSource, eventTypeRaw: UInt16,
        address: BluetoothAddress, addressType: AddressType, rssiDBm: Int8?, txPowerDBm: Int8? = nil,
        channelIndex: UInt8? = nil, data: InlineBytes?, extended: ExtendedReportDetails? = nil,
        directAddress: BluetoothAddress? = nil, directAddressType: AddressType? = nil
    ) {
        self.init()
        self.data = data
        fill(
            record: record, timestampMicros: timestampMicros, source: source, eventTypeRaw: eventTypeRaw,
            address: address, addressType: addressType, rssiDBm: rssiDBm, txPowerDBm: txPowerDBm,
            channelIndex: channelIndex, extended: extended, directAddress: directAddress,
            directAddressType: directAddressType)
    }

    /// An advertisement with no data, from no record: storage for a decoder to `fill`.
    public init() {
        record = 0
        source = .hciAdvertisingReport
        eventTypeRaw = 0
        address = BluetoothAddress(rawValue: 0)
        addressType = AddressType(rawValue: 0)
    }

    /// Sets every field but `data`, as `init` would, in place: how the report decoders build
    /// each advertisement in the slot they reuse (`RecordDecoder.withSlot`), its data stored
    /// first (`Optional<InlineBytes>.store(_:)`, or read in place with
    /// `ByteCursor.readDeclaredInlineBytes(_:declaredAt:_:into:)`).
    @inline(__always)
    package mutating func fill(
        record: Int, timestampMicros: Int64?, source: AdvertisementSource, eventTypeRaw: UInt16,
        address: BluetoothAddress, addressType: AddressType, rssiDBm: Int8?, txPowerDBm: Int8? = nil,
        channelIndex: UInt8? = nil, extended: ExtendedReportDetails? = nil,
        directAddress: BluetoothAddress? = nil, directAddressType: AddressType? = nil
    ) {
        self.record = record
        self.timestampMicros = timestampMicros
        self.source = source
        self.eventTypeRaw = eventTypeRaw
        self.address = address
        self.addressType = addressType
        self.rssiDBm = rssiDBm
        self.txPowerDBm = txPowerDBm
        self.channelIndex = channelIndex
        self.extended = extended
        self.directAddress = directAddress
        self.directAddressType = directAddressType
    }

    /// True when the advertisement carries AD data, even of length 0 (a report's Data field,
    /// as opposed to a PDU or report that has none).
    @inlinable public var hasData: Bool {
        if case .none = data { return false }
        return true
    }

    /// True when the advertisement carries at least one byte of AD data. (A report with
    /// Data_Length 0 has none, like Wireshark's count of advertisements with AD entries:
    /// RECORDS-9, HCI-ADV-18.)
    public var hasADData: Bool { data.map { !$0.isEmpty } ?? false }

    /// True for SCAN_RSP PDUs and reports of scan responses (HCI-ADV-11, HCI-EXT-2, LL-9).
    public var isScanResponse: Bool {
        switch source {
        case .hciAdvertisingReport: eventTypeRaw == 4
        case .hciExtendedAdvertisingReport: eventTypeRaw & 0x0008 != 0
        case .linkLayer: eventTypeRaw == 4
        default: false
        }
    }

    /// The event or PDU type by name: `ADV_IND`, `ADV_DIRECT_IND`, `ADV_SCAN_IND`,
    /// `ADV_NONCONN_IND`, `SCAN_RSP`; for non-legacy extended reports `EXT_ADV` or
    /// `EXT_SCAN_RSP`; `reserved-0xNN` for values the specification does not define
    /// (`reserved-legacy-0xNN`, bits 0–4, for an extended report's legacy ones; HCI-ADV-10,
    /// HCI-EXT-3, HCI-EXT-4, LL-8).
    public var eventTypeName: String {
        if let name = definedEventTypeName { return name.description }
        switch source {
        case .hciExtendedAdvertisingReport: return "reserved-legacy-" + Self.hex(eventTypeRaw & 0x1F, 2)
        case .hciAdvertisingReport, .hciDirectedAdvertisingReport, .linkLayer:
            return "reserved-" + Self.hex(eventTypeRaw, 2)
        default: return Self.hex(eventTypeRaw, 4)
        }
    }

    /// `eventTypeName` when the specification defines the value, nil for the `reserved-`
    /// forms.
    public var definedEventTypeName: StaticString? {
        switch source {
        case .hciAdvertisingReport:
            switch eventTypeRaw {
            case 0: "ADV_IND"
            case 1: "ADV_DIRECT_IND"
            case 2: "ADV_SCAN_IND"
            case 3: "ADV_NONCONN_IND"
            case 4: "SCAN_RSP"
            default: nil
            }
        case .hciDirectedAdvertisingReport:
            eventTypeRaw == 1 ? "ADV_DIRECT_IND" : nil
        case .hciExtendedAdvertisingReport:
            // Bits 0–4: connectable, scannable, directed, scan response, legacy (HCI-EXT-2 to
            // HCI-EXT-4). Data status (bits 5–6) and reserved bits do not change it.
            switch eventTypeRaw & 0x1F {
            case 0x13: "ADV_IND"
            case 0x15: "ADV_DIRECT_IND"
            case 0x12: "ADV_SCAN_IND"
            case 0x10: "ADV_NONCONN_IND"
            case 0x1B, 0x1A: "SCAN_RSP"
            case let kind where kind & 0x10 != 0: nil
            case let kind: kind & 0x08 != 0 ? "EXT_SCAN_RSP" : "EXT_ADV"
            }
        case .linkLayer:
            switch eventTypeRaw {
            case 0: "ADV_IND"
            case 1: "ADV_DIRECT_IND"
            case 2: "ADV_NONCONN_IND"
            case 4: "SCAN_RSP"
            case 6: "ADV_SCAN_IND"
            default: nil
            }
        default:
            nil
        }
    }

    private static func hex(_ v: UInt16, _ digits: Int) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}

/// Where an advertisement came from. An open code space, named by compile-time strings
/// (`StaticName`: every advertisement carries one, and copying it must cost nothing).
public struct AdvertisementSource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: StaticName
    @inlinable public init(rawValue: StaticName) { self.rawValue = rawValue }
    public var description: String { rawValue.description }

    /// HCI LE Advertising Report (LE Meta subevent 0x02).
    @inlinable public static var hciAdvertisingReport: AdvertisementSource {
        AdvertisementSource(rawValue: "hci-adv-report")
    }
    /// HCI LE Extended Advertising Report (LE Meta subevent 0x0D).
    @inlinable public static var hciExtendedAdvertisingReport: AdvertisementSource {
        AdvertisementSource(rawValue: "hci-ext-adv-report")
    }
    /// HCI LE Directed Advertising Report (LE Meta subevent 0x0B).
    @inlinable public static var hciDirectedAdvertisingReport: AdvertisementSource {
        AdvertisementSource(rawValue: "hci-direct-adv-report")
    }
    /// An advertising physical channel PDU captured by a sniffer (LINKTYPE 251, 256, 272).
    @inlinable public static var linkLayer: AdvertisementSource { AdvertisementSource(rawValue: "ll-adv") }
}

/// The fields of an LE Extended Advertising Report beyond those every report has
/// (HCI-EXT-16; Core Vol 4 Part E §7.7.65.13).
public struct ExtendedReportDetails: Hashable, Sendable {
    // `fragments` first, so that the one-byte fields pack behind it (15 bytes, not 17).

    /// How many reports the data was reassembled from (1 when it came whole).
    public var fragments: Int
    /// 1 LE 1M, 3 LE Coded; other values reserved.
    public var primaryPHY: UInt8
    /// 0 none, 1 LE 1M, 2 LE 2M, 3 LE Coded.
    public var secondaryPHY: UInt8
    /// Advertising SID 0x00–0x0F; 0xFF when no ADI field was present.
    public var sid: UInt8
    /// Data status of the report that completed the data: 0 complete, 1 more to come
    /// (only for a chain cut off by the end of the capture), 2 truncated, 3 reserved.
    public var dataStatus: UInt8
    /// Periodic advertising interval in units of 1.25 ms; 0 when none.
    public var periodicAdvertisingInterval: UInt16
    /// True when the data is incomplete: the controller said so (status 2), or the chain
    /// never completed.
    public var truncated: Bool

    public init(
        primaryPHY: UInt8, secondaryPHY: UInt8, sid: UInt8, periodicAdvertisingInterval: UInt16,
        dataStatus: UInt8, fragments: Int = 1, truncated: Bool = false
    ) {
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.dataStatus = dataStatus
        self.fragments = fragments
        self.truncated = truncated
    }
}
