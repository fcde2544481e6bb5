import NearbyBytes

/// What an advertisement's AD data holds, for this package's purposes.
public struct AdvertisingDataContents: Sendable {
    /// Beacon frames in the order of their AD structures.
    public var beacons = BeaconFrames()
    /// The Tx Power Level AD (0x0A), dBm, when present.
    public var txPowerLevelDBm: Int8?
    /// Faults found: a malformed AD structure stops the walk (AD-3); a malformed beacon frame
    /// is reported and the walk goes on with the next structure (AD-6).
    public var errors: [DecodeError] = []

    /// Empty contents: no beacon frame, no Tx Power Level, no fault.
    public init() {}

    /// Empties the contents, keeping the storage of the beacon frames for the next decode.
    @inlinable @inline(__always)
    public mutating func removeAll() {
        beacons.removeAll()
        txPowerLevelDBm = nil
        if !errors.isEmpty { errors.removeAll() }
    }

    /// Empties the contents for the decoder to add to (`BeaconFrames.appendToOwnStorage`).
    @inline(__always)
    mutating func removeAllForDecoding() {
        beacons.removeAllOwningStorage()
        txPowerLevelDBm = nil
        if !errors.isEmpty { errors.removeAll() }
    }
}

/// Decodes AD data into beacon frames: Eddystone (Service Data 0x16, UUID 0xFEAA), token
/// advertisements v1 (Service Data 0x16, UUID 0xFEF3), iBeacon and AltBeacon (Manufacturer
/// Specific Data 0xFF): the table of docs/spec/ad-structures.md, AD-4 to AD-12.
public enum AdvertisingDataDecoder {
    /// Decodes AD data held in a slice (offsets are the slice's indices).
    public static func decode(_ data: ArraySlice<UInt8>) -> AdvertisingDataContents {
        var c = ByteCursor(data, layer: .adStructure)
        var out = AdvertisingDataContents()
        decode(&c, into: &out)
        return out
    }

    /// Replaces `out` with the decoding of an advertisement's AD data, keeping its storage:
    /// a decoder that reuses one `AdvertisingDataContents` allocates no beacon storage per
    /// advertisement (unless a copy of the previous frames is still held elsewhere).
    @inlinable
    package static func decode(_ data: InlineBytes, into out: inout AdvertisingDataContents) {
        data.withCursor(layer: .adStructure) { decode(&$0, into: &out) }
    }

    /// Replaces `out` with the decoding of the AD data from the cursor to its end.
    @usableFromInline package static func decode(_ c: inout ByteCursor, into out: inout AdvertisingDataContents) {
        // Frames are added to storage made `out`'s own here: `out` is not copied until the
        // walk returns.
        out.removeAllForDecoding()
        c.layer = .adStructure
        do throws(DecodeError) {
            while let header = try ADStructure.readHeader(&c) {
                switch header.type {
                case .serviceData16BitUUID, .manufacturerSpecificData, .txPowerLevel:
                    // The payload's bytes are borrowed: nothing is copied or retained.
                    let payload = try c.carve(header.payloadLength, "AD data")
                    decodeStructure(header.type, payload.bytes, startIndex: payload.startIndex, into: &out)
                default:  // AD-5: passed over by its length
                    try c.skip(header.payloadLength, "AD data")
                }
            }
        } catch {
            out.errors.append(error)
        }
    }

    /// One AD structure's payload, its first byte at record offset `startIndex`; a malformed
    /// frame is recorded and the walk goes on (AD-6).
    @inline(never)
    private static func decodeStructure(
        _ type: ADType, _ payload: Span<UInt8>, startIndex: Int, into out: inout AdvertisingDataContents
    ) {
        var c = ByteCursor(payload, startIndex: startIndex, layer: .adStructure)
        do throws(DecodeError) {
            try decode(type, &c, into: &out)
        } catch {
            out.errors.append(error)
        }
    }

    @inline(__always)
    private static func decode(
        _ type: ADType, _ c: inout ByteCursor, into out: inout AdvertisingDataContents
    ) throws(DecodeError) {
        switch type {
        case .serviceData16BitUUID:
            // AD-8; AD-11: another UUID holds no beacon.
            let uuid = ServiceUUID16(rawValue: try c.readUInt16LE("service UUID"))
            if uuid == .eddystone {
                out.beacons.appendToOwnStorage(.eddystone(try EddystoneFrame(&c)))
            } else if uuid == .copresence, let token = try TokenAdvertisement.decode(&c) {
                out.beacons.appendToOwnStorage(.token(token))
            }
        case .manufacturerSpecificData:
            // AD-9; AD-11: data that is neither beacon holds none.
            let company = CompanyIdentifier(rawValue: try c.readUInt16LE("company identifier"))
            if let beacon = try IBeacon(company: company, &c) {
                out.beacons.appendToOwnStorage(.iBeacon(beacon))
            } else if let beacon = try AltBeacon(company: company, &c) {
                out.beacons.appendToOwnStorage(.altBeacon(beacon))
            }
        case .txPowerLevel:
            // AD-10: one signed octet; the last structure counts.
            out.txPowerLevelDBm = try c.readInt8("Tx Power Level")
            try c.expectEnd("Tx Power Level AD")
        default:
            break
        }
    }
}
