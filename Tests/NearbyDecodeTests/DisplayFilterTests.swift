import Foundation
import NearbyDecode
import NearbyJSON
import NearbyTestSupport
import Testing

/// `decode -Y` (docs/decode-output.md, "Display filters"): the lines it keeps are those a
/// plain filter written here over decode's own JSON lines keeps, and a filter that cannot be
/// read is refused with the position of what is wrong.
@Suite struct DisplayFilterTests {
    static let walk = RepositoryPaths.root + "/Captures/synthetic/office-walk/office-walk.btsnoop"

    /// A line as Foundation reads it, for the plain filters below.
    typealias Line = [String: Any]

    static func beacons(_ l: Line) -> [[String: Any]] { l["beacons"] as? [[String: Any]] ?? [] }
    static func ad(_ l: Line) -> [[String: Any]] { l["ad"] as? [[String: Any]] ?? [] }

    static let cases: [(filter: String, plain: @Sendable (Line) -> Bool)] = [
        (
            #"beacon.type == "ibeacon" && beacon.major == 1 && rssi > -80"#,
            { l in
                beacons(l).contains { $0["type"] as? String == "ibeacon" }
                    && beacons(l).contains { $0["major"] as? Int == 1 }
                    && (l["rssi"] as? Int).map { $0 > -80 } == true
            }
        ),
        (
            #"ad.companyName contains "Apple" && !beacon.type"#,
            { l in
                ad(l).contains { ($0["companyName"] as? String)?.contains("Apple") == true } && beacons(l).isEmpty
            }
        ),
        (
            #"(eventType == "SCAN_RSP" || ad.name matches "^Sensor-[0-9]+$") and rssi <= -70"#,
            { l in
                (l["eventType"] as? String == "SCAN_RSP"
                    || ad(l).contains { ($0["name"] as? String)?.wholeMatch(of: /Sensor-[0-9]+/) != nil })
                    && (l["rssi"] as? Int).map { $0 <= -70 } == true
            }
        ),
        (
            #"ad.uuids contains "feaa" || not address != "ca:e0:b8:11:5b:de""#,
            { l in
                ad(l).contains { ($0["uuids"] as? [String])?.contains("feaa") == true }
                    || l["address"] as? String == "ca:e0:b8:11:5b:de"
            }
        ),
    ]

    @Test(arguments: 0..<cases.count)
    func decodeKeepsTheLinesAPlainFilterKeeps(_ index: Int) throws {
        let c = Self.cases[index]
        let all = try CommandLineTool.run(["decode", Self.walk])
        let filtered = try CommandLineTool.run(["decode", "-Y", c.filter, Self.walk])
        #expect(all.status == 0 && filtered.status == 0, "\(filtered.stderr)")
        let expected = try all.stdoutLines.filter { line in
            c.plain(try JSONSerialization.jsonObject(with: Data(line.utf8)) as! Line)
        }
        #expect(!expected.isEmpty, "the case selects something")
        #expect(expected.count < all.stdoutLines.count, "the case leaves something out")
        #expect(filtered.stdoutLines == expected, "\(c.filter)")
    }

    @Test(arguments: [
        ("beacon.typo == 1", 0, "unknown field beacon.typo"),
        ("rssi > ", 7, "expected a value after >"),
        (#"rssi > -70 && (beacon.major == 1"#, 32, "expected ), found the end"),
        (#"address contains 5"#, 8, "contains compares text"),
        (#"ad.name matches "(""#, 16, "not a regular expression"),
        (#"eventType == "ADV"#, 13, "unterminated string"),
        ("rssi > -70 #", 11, "unexpected character #"),
    ])
    func anUnreadableFilterNamesThePosition(text: String, position: Int, phrase: String) {
        #expect {
            _ = try DisplayFilter(text)
        } throws: { error in
            guard let e = error as? DisplayFilter.SyntaxError else { return false }
            return e.position == position && e.reason.contains(phrase)
        }
    }

    @Test func aWrongFilterIsAnErrorOfTheCommand() throws {
        let r = try CommandLineTool.run(["decode", "-Y", "beacon.typo == 1", Self.walk])
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: -Y beacon.typo == 1: at character 1: unknown field beacon.typo"))
        #expect(r.stdout.isEmpty)
    }
}
