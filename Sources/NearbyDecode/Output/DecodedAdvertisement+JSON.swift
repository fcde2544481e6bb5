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
        w.member("addressType", plain: a.addressType.name, else: a.addressType.description)
        w.key("beacons")
        w.beginArray()
        for beacon in contents.beacons { BeaconJSON.write(beacon, to: &w) }
        w.endArray()
        w.member("channel", a.channelIndex)
        w.key("data")
        if let data = a.data { w.hex(data) } else { w.null() }
        if let direct = a.directAddress {
            w.key("directAddress")
            w.unescapedString(maxLength: AddressText.length) { AddressText.write(direct, to: $0) }
            w.member("directAddressType", string: a.directAddressType?.description ?? "")
        }
        if !contents.errors.isEmpty {
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
        w.member("eventType", plain: a.definedEventTypeName, else: a.eventTypeName)
        w.member("eventTypeRaw", a.eventTypeRaw)
        if let d = a.extended {
            w.key("extended")
            w.beginObject()
            w.member("dataStatus", d.dataStatus)
            w.member("fragments", d.fragments)
            w.member("periodicInterval", d.periodicAdvertisingInterval)
            w.member("primaryPhy", d.primaryPHY)
            w.member("secondaryPhy", d.secondaryPHY)
            w.member("sid", d.sid)
            w.member("truncated", d.truncated)
            w.endObject()
        }
        w.key("file")
        w.string(file)
        w.member("record", a.record)
        w.member("rssi", a.rssiDBm)
        w.member("scanResponse", a.isScanResponse)
        w.key("source")
        a.source.rawValue.withUTF8 { w.plain($0) }
        w.key("time")
        if let t = a.timestampMicros { w.seconds(micros: t) } else { w.null() }
        w.member("txPower", txPowerDBm)
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
