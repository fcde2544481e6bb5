import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON

extension DecodedAdvertisement {
    /// Writes the `decode` output object of this advertisement (docs/decode-output.md),
    /// keys in the order of their UTF-8 bytes; `file` is the capture's path as named.
    public func writeJSON(file: EscapedString, to w: inout JSONWriter) {
        let a = advertisement
        w.beginObject()
        w.key("address")
        w.unescapedString(maxLength: AddressText.length) { AddressText.write(a.address, to: $0) }
        w.key("addressType")
        w.string(a.addressType.description)
        w.key("beacons")
        w.beginArray()
        for beacon in contents.beacons { BeaconJSON.write(beacon, to: &w) }
        w.endArray()
        w.key("channel")
        w.integer(a.channelIndex)
        w.key("data")
        if let data = a.data { w.hex(data) } else { w.null() }
        if let direct = a.directAddress {
            w.key("directAddress")
            w.unescapedString(maxLength: AddressText.length) { AddressText.write(direct, to: $0) }
            w.key("directAddressType")
            w.string(a.directAddressType?.description ?? "")
        }
        if !contents.errors.isEmpty {
            w.key("errors")
            w.beginArray()
            for error in contents.errors {
                w.beginObject()
                w.key("code")
                w.string(error.code.rawValue)
                w.key("layer")
                w.string(error.layer.description)
                w.key("offset")
                w.integer(error.offset)
                w.key("reason")
                w.string(error.reason)
                w.endObject()
            }
            w.endArray()
        }
        w.key("eventType")
        w.string(a.eventTypeName)
        w.key("eventTypeRaw")
        w.integer(a.eventTypeRaw)
        if let d = a.extended {
            w.key("extended")
            w.beginObject()
            w.key("dataStatus")
            w.integer(d.dataStatus)
            w.key("fragments")
            w.integer(d.fragments)
            w.key("periodicInterval")
            w.integer(d.periodicAdvertisingInterval)
            w.key("primaryPhy")
            w.integer(d.primaryPHY)
            w.key("secondaryPhy")
            w.integer(d.secondaryPHY)
            w.key("sid")
            w.integer(d.sid)
            w.key("truncated")
            w.bool(d.truncated)
            w.endObject()
        }
        w.key("file")
        w.string(file)
        w.key("record")
        w.integer(a.record)
        w.key("rssi")
        w.integer(a.rssiDBm)
        w.key("scanResponse")
        w.bool(a.isScanResponse)
        w.key("source")
        w.string(a.source.description)
        w.key("time")
        if let t = a.timestampMicros { w.seconds(micros: t) } else { w.null() }
        w.key("txPower")
        w.integer(txPowerDBm)
        w.endObject()
    }

    /// The `decode` output object as a value tree (for annotations and comparisons; output
    /// goes through `writeJSON`).
    public func jsonObject(file: String) -> JSONValue {
        var w = JSONWriter(capacity: 512)
        writeJSON(file: EscapedString(file), to: &w)
        return try! JSONParser.parse(w.bytes)
    }
}
