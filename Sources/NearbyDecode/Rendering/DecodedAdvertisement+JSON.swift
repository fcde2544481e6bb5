import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON

extension DecodedAdvertisement {
    /// Writes the `decode` output object of this advertisement (docs/decode-output.md),
    /// keys in the order of their UTF-8 bytes; `file` is the capture's path as named.
    /// Members of a fixed shape are written in runs (`JSONWriter.run`), their keys in the
    /// runs' literals. `beaconMembers`, when given, holds members to add to each beacon's
    /// object, by the beacon's index (`decode --registry`: `SecureFrameAnnotator.members`).
    package func writeJSON(file: EscapedString, to w: inout JSONWriter, beaconMembers: [[String: JSONValue]] = []) {
        let a = advertisement
        w.beginObject()
        w.key("ad")
        if let data = a.data {
            data.withUnsafeBytes { ADStructureJSON.write($0.assumingMemoryBound(to: UInt8.self), to: &w) }
        } else {
            ADStructureJSON.write(UnsafeBufferPointer(start: nil, count: 0), to: &w)
        }
        NameText.withUTF8(a.addressType.name, else: a.addressType.description) { addressType in
            w.run(maxLength: 64 + addressType.count, endsWithValue: false) { r in
                r.literal(#","address":""#)
                r.write { AddressText.write(a.address, to: $0) }
                r.literal(#"","addressType":""#)
                r.bytes(addressType)
                r.literal(#"","beacons":["#)
            }
        }
        for (i, beacon) in contents.beacons.enumerated() {
            if i < beaconMembers.count, !beaconMembers[i].isEmpty {
                BeaconJSON.write(beacon, adding: beaconMembers[i], to: &w)
            } else {
                BeaconJSON.write(beacon, to: &w)
            }
        }
        w.endArray()
        w.run(maxLength: 40, endsWithValue: false) { r in
            r.member(#","channel":"#, a.channelIndex)
            r.literal(#","data":"#)
        }
        if let data = a.data { w.hex(data) } else { w.null() }
        if let direct = a.directAddress {
            w.key("directAddress")
            w.unescapedString(maxLength: AddressText.length) { AddressText.write(direct, to: $0) }
            w.member("directAddressType", string: a.directAddressType?.description ?? "")
        }
        if !contents.errors.isEmpty { writeErrors(to: &w) }
        NameText.withUTF8(a.definedEventTypeName, else: a.eventTypeName) { eventType in
            // Under 256 bytes beside the name: eight keys of at most 20 bytes, integers of at
            // most 20 digits.
            w.run(maxLength: 256 + eventType.count, endsWithValue: false) { r in
                r.literal(#","eventType":""#)
                r.bytes(eventType)
                r.literal(#"""#)
                r.member(#","eventTypeRaw":"#, a.eventTypeRaw)
                if let d = a.extended {
                    r.member(#","extended":{"dataStatus":"#, d.dataStatus)
                    r.member(#","fragments":"#, d.fragments)
                    r.member(#","periodicInterval":"#, d.periodicAdvertisingInterval)
                    r.member(#","primaryPhy":"#, d.primaryPHY)
                    r.member(#","secondaryPhy":"#, d.secondaryPHY)
                    r.member(#","sid":"#, d.sid)
                    r.member(#","truncated":"#, d.truncated)
                    r.literal("}")
                }
                r.literal(#","file":"#)
            }
        }
        w.string(file)
        let txPower = txPowerDBm
        a.source.rawValue.withUTF8 { source in
            w.run(maxLength: 160 + source.count, endsWithValue: true) { r in
                r.member(#","record":"#, a.record)
                r.member(#","rssi":"#, a.rssiDBm)
                r.member(#","scanResponse":"#, a.isScanResponse)
                r.literal(#","source":""#)
                r.bytes(source)
                r.literal(#"","time":"#)
                if let t = a.timestampMicros { r.seconds(micros: t) } else { r.literal("null") }
                r.member(#","txPower":"#, txPower)
                r.literal("}")
            }
        }
    }

    /// The `errors` member: each fault of the AD data, in the order found.
    private func writeErrors(to w: inout JSONWriter) {
        w.key("errors")
        w.beginArray()
        for error in contents.errors {
            w.beginObject()
            w.member("code", string: error.code.rawValue)
            w.member("layer", string: error.layer.description)
            w.member("offset", error.offset)
            w.member("reason", string: error.reason)
            w.endObject()
        }
        w.endArray()
    }

    /// The `decode` output object as a value tree (for annotations and comparisons; output
    /// goes through `writeJSON`). It is the line `writeJSON` writes, read back: the one
    /// rendering of an advertisement.
    public func jsonObject(file: String) -> JSONValue {
        var w = JSONWriter(capacity: 512)
        writeJSON(file: EscapedString(file), to: &w)
        return try! JSONParser.parse(w.bytes)
    }

    /// The members of the `decode` output object named in `names`, the others not built:
    /// what a display filter reads (`DisplayFilter.memberNames`). `scratch` is the writer
    /// the line is written into, emptied first.
    package func jsonMembers(
        _ names: [String], file: EscapedString, scratch: inout JSONWriter
    ) -> [String: JSONValue] {
        scratch.removeAll()
        writeJSON(file: file, to: &scratch)
        return try! JSONParser.members(of: scratch.bytes, keeping: names)
    }
}
