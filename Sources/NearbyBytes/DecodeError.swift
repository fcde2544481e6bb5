/// A decoding failure: which layer, what went wrong (an open code), and where.
///
/// `offset` is an index into the byte slice that was being decoded. Decoders carve
/// sub-slices without re-basing them, so for a record the offset is the offset from the
/// first byte of the record, and for a bare advertisement it is the offset in its AD data.
///
/// A `nil` result from a decoder means "not this kind of frame"; a thrown `DecodeError`
/// means "this is that kind of frame, and it is malformed at `offset`".
public struct DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var layer: Layer
    public var code: Code
    /// Offset of the offending field, in bytes, in the slice being decoded.
    public var offset: Int
    /// A sentence for people: what was expected and what was found.
    public var reason: String

    public init(_ layer: Layer, _ code: Code, at offset: Int, _ reason: String) {
        self.layer = layer
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// `layer/code`, the key under which a summary counts this failure.
    public var key: String { "\(layer)/\(code.rawValue)" }

    public var description: String { "\(layer): \(reason) (offset \(offset))" }

    /// What went wrong. An open code space: new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The input ended inside a fixed-size field.
        public static let truncated = Code(rawValue: "truncated")
        /// A length field declares more bytes than its container holds.
        public static let lengthOverrun = Code(rawValue: "length-overrun")
        /// A length field or count disagrees with the bytes present (without overrunning).
        public static let lengthMismatch = Code(rawValue: "length-mismatch")
        /// Bytes left over after a structure that must end its container.
        public static let trailingBytes = Code(rawValue: "trailing-bytes")
        /// A field holds a value the specification does not allow.
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// The CRC computed over the packet differs from the one it carries.
        public static let crcMismatch = Code(rawValue: "crc-mismatch")
        /// The capture device reports that the packet failed its CRC check.
        public static let crcFailed = Code(rawValue: "crc-failed")
        /// A valid structure this decoder does not read (an unknown version, say).
        public static let unsupported = Code(rawValue: "unsupported")
        /// An extended advertising report chain that never completed.
        public static let incompleteChain = Code(rawValue: "incomplete-chain")
    }

    /// Which decoder raised the error. An open code space, named by compile-time strings
    /// (`StaticName`): every `ByteCursor` carries its layer and decoders set it at each
    /// structure, so copying a layer must cost nothing.
    public struct Layer: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: StaticName
        @inlinable public init(rawValue: StaticName) { self.rawValue = rawValue }
        public var description: String { rawValue.description }

        @inlinable public static var file: Layer { Layer(rawValue: "file") }
        @inlinable public static var pcap: Layer { Layer(rawValue: "pcap") }
        @inlinable public static var btsnoop: Layer { Layer(rawValue: "btsnoop") }
        @inlinable public static var hexText: Layer { Layer(rawValue: "hex-text") }
        @inlinable public static var h4: Layer { Layer(rawValue: "h4") }
        @inlinable public static var h4PseudoHeader: Layer { Layer(rawValue: "h4-phdr") }
        @inlinable public static var linuxMonitor: Layer { Layer(rawValue: "linux-monitor") }
        @inlinable public static var hciEvent: Layer { Layer(rawValue: "hci-event") }
        @inlinable public static var advertisingReport: Layer { Layer(rawValue: "adv-report") }
        @inlinable public static var extendedAdvertisingReport: Layer { Layer(rawValue: "ext-adv-report") }
        @inlinable public static var directedAdvertisingReport: Layer { Layer(rawValue: "direct-adv-report") }
        @inlinable public static var linkLayer: Layer { Layer(rawValue: "ll") }
        @inlinable public static var lePseudoHeader: Layer { Layer(rawValue: "le-phdr") }
        @inlinable public static var nordicSniffer: Layer { Layer(rawValue: "nordic") }
        @inlinable public static var adStructure: Layer { Layer(rawValue: "ad") }
        @inlinable public static var eddystone: Layer { Layer(rawValue: "eddystone") }
        @inlinable public static var iBeacon: Layer { Layer(rawValue: "ibeacon") }
        @inlinable public static var altBeacon: Layer { Layer(rawValue: "altbeacon") }
        @inlinable public static var token: Layer { Layer(rawValue: "token") }
    }
}
