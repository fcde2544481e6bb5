import Foundation
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyTestSupport
import Testing

/// The `ad` member of `decode`'s lines against TShark's own dissection of the AD data
/// (`btcommon.eir_ad.entry.*`), record by record, on the field captures and the fixtures:
/// the AD types in order, company identifiers and their names, 16-bit UUIDs, Tx power and
/// local names. A second implementation, and the source of the assigned-numbers tables.
@Suite(.enabled(if: TShark.path != nil, "tshark is not installed"))
struct ADStructureTSharkTests {
    /// Captures of HCI reports, where TShark dissects the AD data of every report.
    static var captures: [String] {
        let fixtures = ["hci-h4-1002.btsnoop", "hci-h4-187.pcap", "hci-monitor-2001.btsnoop"].map {
            RepositoryPaths.root + "/Captures/fixtures/" + $0
        }
        let field = FieldCaptureTests.binaryCaptures.filter { $0.hasSuffix(".log") || $0.hasSuffix(".last") }
        return fixtures + (RepositoryPaths.sharedCaptures.map { shared in field.map { shared + "/" + $0 } } ?? [])
    }

    /// One record's AD entries as TShark lists them, all reports of the record together.
    struct Entries: Equatable, CustomStringConvertible {
        var types: [Int] = []
        var companies: [String] = []
        var uuids16: [String] = []
        var txPowers: [Int] = []
        var names: [String] = []
        var description: String {
            "types \(types) companies \(companies) uuids \(uuids16) tx \(txPowers) names \(names)"
        }
    }

    static let fields = [
        "frame.number", "btcommon.eir_ad.entry.type", "btcommon.eir_ad.entry.company_id",
        "btcommon.eir_ad.entry.uuid_16", "btcommon.eir_ad.entry.power_level", "btcommon.eir_ad.entry.device_name",
        "bthci_evt.le_meta_subevent", "bthci_cmd.opcode",
    ]

    /// TShark's entries of every LE Advertising Report (subevent 0x02), by record.
    static func tshark(_ capture: String) throws -> [Int: Entries] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TShark.path!)
        p.arguments =
            ["-r", capture, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=\u{1F}", "-E", "separator=\u{1E}"]
            + fields.flatMap { ["-e", $0] } + ["-Y", "bthci_evt.le_meta_subevent == 0x02"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        var byRecord: [Int: Entries] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let columns = line.split(separator: "\u{1E}", omittingEmptySubsequences: false).map {
                $0.split(separator: "\u{1F}").map(String.init)
            }
            guard let record = columns[0].first.flatMap({ Int($0) }) else { continue }
            var e = Entries()
            e.types = columns[1].compactMap { Int($0.dropFirst(2), radix: 16) }
            e.companies = columns[2].map { String($0.dropFirst(2)) }
            e.uuids16 = columns[3].map { String($0.dropFirst(2)) }
            e.txPowers = columns[4].compactMap { Int($0) }
            e.names = columns[5]
            byRecord[record] = e
        }
        return byRecord
    }

    /// The same from `decode`'s `ad` members, all advertisements of a record together.
    static func decoded(_ capture: String) throws -> [Int: Entries] {
        var byRecord: [Int: Entries] = [:]
        _ = try CaptureDecoder.decode(
            path: capture,
            onAdvertisement: { d in
                guard d.advertisement.source == .hciAdvertisingReport,
                    case .object(let o) = d.jsonObject(file: capture), case .array(let ad)? = o["ad"]
                else { return }
                var e = byRecord[d.advertisement.record] ?? Entries()
                func int(_ v: JSONValue?) -> Int? { v?.numberValue.map { Int($0) } }
                for case .object(let entry) in ad {
                    guard let type = int(entry["adType"]) else { continue }
                    e.types.append(type)
                    if let company = int(entry["company"]) { e.companies.append(String(format: "%04x", company)) }
                    if case .array(let uuids)? = entry["uuids"], entry["names"] != nil {
                        e.uuids16 += uuids.compactMap { if case .string(let u) = $0 { u } else { nil } }
                    }
                    if case .string(let uuid)? = entry["uuid"], entry["uuidName"] != nil || uuid.count == 4,
                        entry["type"] == .string("service-data-16")
                    {
                        e.uuids16.append(uuid)
                    }
                    if let tx = int(entry["txPower"]) { e.txPowers.append(tx) }
                    if case .string(let name)? = entry["name"] { e.names.append(name) }
                }
                byRecord[d.advertisement.record] = e
            }, onIssue: { _ in })
        return byRecord
    }

    @Test(arguments: captures)
    func adEntriesMatchTSharksDissection(_ capture: String) throws {
        let theirs = try Self.tshark(capture)
        let ours = try Self.decoded(capture)
        // A capture without LE Advertising Reports (extended reports only, or none) has none
        // in either.
        #expect(!theirs.isEmpty || ours.isEmpty, "\(capture): TShark found no LE Advertising Report")
        #expect(!theirs.isEmpty || !capture.contains("/Captures/fixtures/"))
        var compared = 0
        for (record, expected) in theirs.sorted(by: { $0.key < $1.key }) {
            // Records decode did not take as legacy reports (malformed ones) are left out.
            guard let got = ours[record] else { continue }
            #expect(got == expected, "\(capture) record \(record)")
            compared += 1
        }
        #expect(compared * 10 >= theirs.count * 9, "\(capture): \(compared) of \(theirs.count) records compared")
    }

    // The names come from the same tables TShark prints: the company of each manufacturer
    // data entry as TShark names it.
    @Test func companyNamesAreTSharks() throws {
        let capture = RepositoryPaths.root + "/Captures/fixtures/hci-h4-1002.btsnoop"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TShark.path!)
        p.arguments = ["-r", capture, "-V", "-Y", "btcommon.eir_ad.entry.company_id"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        // "Company ID: Apple, Inc. (0x004c)"
        let lines = text.split(separator: "\n").filter { $0.contains("Company ID: ") }
        #expect(!lines.isEmpty)
        for line in lines {
            let named = line.split(separator: "Company ID: ", maxSplits: 1)[1]
            guard let open = named.lastIndex(of: "("),
                let id = UInt16(named[open...].dropFirst(3).dropLast(), radix: 16)
            else { continue }
            let name = named[..<open].trimmingCharacters(in: .whitespaces)
            #expect(AssignedNumbers.companyName(id) == name, "\(line)")
        }
    }
}
