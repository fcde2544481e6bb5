import NearbyBytes

/// How one record was accounted for: every record read is exactly one of these, so
/// records read = decoded + ignored + malformed (RECORDS-4 to RECORDS-7).
public enum RecordOutcome: Sendable, Equatable {
    /// It held advertising reports or advertising PDUs, and all of it decoded.
    case decoded
    /// It is well formed but carries no advertisement (a command, ACL data, …).
    case ignored(IgnoreReason)
    /// Something in it is malformed; whatever decoded before the fault was still emitted.
    indirect case malformed(DecodeError)
}

/// Why a record carries no advertisement (the table of RECORDS-6). An open code space.
public struct IgnoreReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// An HCI command: the host's own configuration or transmission (LE Set Advertising
    /// Data, vendor scan filters…), never a sighting.
    public static let hciCommand = IgnoreReason(rawValue: "hci-command")
    public static let hciACLData = IgnoreReason(rawValue: "hci-acl-data")
    public static let hciSCOData = IgnoreReason(rawValue: "hci-sco-data")
    public static let hciISOData = IgnoreReason(rawValue: "hci-iso-data")
    public static let hciVendorPacket = IgnoreReason(rawValue: "hci-vendor-packet")
    /// An HCI event other than LE Meta.
    public static let hciOtherEvent = IgnoreReason(rawValue: "hci-other-event")
    /// An LE Meta event other than the advertising reports.
    public static let leMetaOtherSubevent = IgnoreReason(rawValue: "le-meta-other-subevent")
    /// A Linux monitor record that is not an HCI packet (index, system notes, logs).
    public static let monitorNonHCI = IgnoreReason(rawValue: "monitor-non-hci")
    public static let llDataChannel = IgnoreReason(rawValue: "ll-data-channel")
    public static let llScanRequest = IgnoreReason(rawValue: "ll-scan-request")
    public static let llConnectIndication = IgnoreReason(rawValue: "ll-connect-indication")
    /// ADV_EXT_IND and AUX_* PDUs, whose data lives on the secondary channels.
    public static let llExtendedAdvertising = IgnoreReason(rawValue: "ll-extended-advertising")
    public static let nordicControl = IgnoreReason(rawValue: "nordic-control")
    /// A link type or datalink this decoder does not read.
    public static let unsupportedEncapsulation = IgnoreReason(rawValue: "unsupported-encapsulation")
}
