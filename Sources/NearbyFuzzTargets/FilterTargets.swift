import NearbyDecode
import NearbyJSON

/// `decode -Y`'s display filter (docs/decode-output.md, "Display filters"): any text must
/// read as a filter or fail with a position inside it and a reason, and a filter that reads
/// must evaluate on a line without trapping, its negation giving the opposite answer.
extension FuzzTarget {
    /// A line of `decode` with beacons, AD structures and an error, to evaluate filters on.
    static let filterLine: [String: JSONValue] = {
        let text = #"""
            {"ad":[{"adType":1,"flags":6,"type":"flags"},{"adType":255,"company":76,"companyName":"Apple, Inc.",\#
            "data":"0215","type":"manufacturer-data"},{"adType":3,"names":["Google LLC"],"type":"uuid16-complete",\#
            "uuids":["feaa"]}],"address":"c0:ff:ee:00:00:01","addressType":"random","beacons":[{"major":1,\#
            "measuredPower":-59,"minor":2,"type":"ibeacon","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0"}],\#
            "channel":null,"data":"0201","errors":[{"code":"truncated","layer":"eddystone","offset":9,"reason":"x"}],\#
            "eventType":"ADV_IND","eventTypeRaw":0,"file":"f","record":3,"rssi":-60,"scanResponse":false,\#
            "source":"hci-adv-report","time":1700000000.123456,"txPower":null}
            """#
        guard case .object(let o)? = try? JSONParser.parse(text) else { return [:] }
        return o
    }()

    /// A display filter's text.
    public static let displayFilter = FuzzTarget(
        name: "display-filter", summary: "a decode -Y display filter", dictionary: "filter", maximumLength: 512,
        check: { input in
            let text = String(decoding: input, as: UTF8.self)
            do throws(DisplayFilter.SyntaxError) {
                let filter = try DisplayFilter(text)
                let negated = try DisplayFilter("!(" + text + ")")
                if filter.matches(filterLine) == negated.matches(filterLine) {
                    return ["a filter and its negation agree on the line: \(text)"]
                }
                return []
            } catch {
                let length = Array(text).count
                var violations: [String] = []
                if error.reason.isEmpty { violations.append("a syntax error without a reason: \(text)") }
                if error.position < 0 || error.position > length {
                    violations.append("a syntax error at \(error.position), outside the \(length) characters: \(text)")
                }
                return violations
            }
        },
        seeds: { _ in
            [
                #"beacon.type == "ibeacon" && beacon.major == 100 && rssi > -70"#,
                #"ad.companyName contains "Apple" || !beacon.type"#, #"(eventType == "SCAN_RSP") and not rssi < -90"#,
                #"ad.name matches "^Sensor-[0-9]+$" || ad.uuids contains "feaa""#, "extended.sid >= 3", "time",
                #"error.code == "truncated""#, "rssi > ", "beacon.typo == 1", #"address == "c0:ff:ee:00:00:01""#,
            ].map { Array($0.utf8) }
        })
}
