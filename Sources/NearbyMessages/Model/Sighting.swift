import NearbyBytes

/// The medium a sighting arrived on.
public enum Medium: UInt8, Hashable, Sendable, CaseIterable, BitwiseCopyable {
    case ble
    case audio

    public var name: String { self == .ble ? "ble" : "audio" }
}

/// What was seen: a token, or a beacon identity. Stored inline (up to 24 bytes) so that
/// hashing a sighting's identity allocates nothing.
public struct SightingIdentity: Hashable, Sendable, BitwiseCopyable {
    public enum Kind: UInt8, Hashable, Sendable, BitwiseCopyable {
        /// A token (BLE token v1 or an audio token), 6 or 8…16 bytes.
        case token = 1
        /// Eddystone-UID namespace + instance, 16 bytes.
        case eddystoneUID
        /// iBeacon UUID + major + minor, 20 bytes.
        case iBeacon
        /// AltBeacon beacon ID, 20 bytes.
        case altBeacon
        /// Eddystone-EID, 8 bytes (resolved through identity keys).
        case eddystoneEID
    }

    public let kind: Kind
    public let count: UInt8
    @usableFromInline let w0: UInt64, w1: UInt64, w2: UInt64

    /// `bytes` must hold at most 24 bytes.
    @inlinable
    public init<C: Collection<UInt8>>(_ kind: Kind, _ bytes: C) {
        var p = Packer()
        p.add(bytes)
        self.init(kind, p)
    }

    /// The identity whose bytes are `first` then `second` (a UID's namespace and instance),
    /// packed without building the concatenation; at most 24 bytes in all.
    @inlinable
    public init<C1: Collection<UInt8>, C2: Collection<UInt8>>(_ kind: Kind, _ first: C1, _ second: C2) {
        var p = Packer()
        p.add(first)
        p.add(second)
        self.init(kind, p)
    }

    /// The identity whose bytes are `bytes`, taken a word at a time (no copy through memory):
    /// how beacon identifiers, read as `ShortBytes`, become sightings.
    @inlinable
    public init(_ kind: Kind, _ bytes: ShortBytes) {
        self.kind = kind
        self.count = UInt8(bytes.count)
        (w0, w1, w2) = bytes.packedWords
    }

    @usableFromInline
    init(_ kind: Kind, _ p: Packer) {
        self.kind = kind
        self.count = UInt8(p.count)
        (w0, w1, w2) = (p.w0, p.w1, p.w2)
    }

    /// Bytes packed little-endian into three words, in order.
    @usableFromInline
    struct Packer {
        @usableFromInline var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0
        @usableFromInline var count = 0

        @inlinable init() {}

        @inlinable
        mutating func add<C: Collection<UInt8>>(_ bytes: C) {
            #if _endian(little)
            // Byte i of the identity is byte i of the three words in memory: contiguous
            // bytes (an array, a slice, `ShortBytes`) are copied at once.
            let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
                precondition(count + source.count <= 24, "an identity holds at most 24 bytes")
                guard let start = source.baseAddress, !source.isEmpty else { return }
                var words = (w0, w1, w2)
                withUnsafeMutableBytes(of: &words) {
                    $0.baseAddress!.advanced(by: count).copyMemory(from: start, byteCount: source.count)
                }
                (w0, w1, w2) = words
                count += source.count
            }
            if copied != nil { return }
            #endif
            for b in bytes {
                precondition(count < 24, "an identity holds at most 24 bytes")
                let shift = UInt64(8 * (count & 7))
                switch count >> 3 {
                case 0: w0 |= UInt64(b) << shift
                case 1: w1 |= UInt64(b) << shift
                default: w2 |= UInt64(b) << shift
                }
                count += 1
            }
        }
    }

    public var bytes: [UInt8] {
        (0..<Int(count)).map { i in
            let w = i < 8 ? w0 : i < 16 ? w1 : w2
            return UInt8(truncatingIfNeeded: w >> UInt64(8 * (i % 8)))
        }
    }
}

/// One sighting fed to the engine: when (µs in the scenario's time base), on which medium,
/// what, and how strong (dBm, when known).
public struct Sighting: Hashable, Sendable {
    public var timeMicros: Int64
    public var medium: Medium
    public var identity: SightingIdentity
    public var rssiDBm: Int8?

    public init(timeMicros: Int64, medium: Medium, identity: SightingIdentity, rssiDBm: Int8? = nil) {
        self.timeMicros = timeMicros
        self.medium = medium
        self.identity = identity
        self.rssiDBm = rssiDBm
    }

    /// The evidence source this sighting counts as (see `EvidenceSource`).
    public var source: EvidenceSource {
        switch identity.kind {
        case .token: medium == .audio ? .audioToken : .bleToken
        case .iBeacon: .iBeacon
        case .eddystoneUID, .altBeacon, .eddystoneEID: .beacon
        }
    }
}
