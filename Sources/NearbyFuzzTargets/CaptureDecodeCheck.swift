import NearbyCapture
import NearbyDecode
import NearbyDecodeSession

/// The invariants of decoding any capture file (the guide's "every record is accounted
/// for"), checked by the capture fuzz targets and the malformed-input batteries alike.
///
/// A file either cannot be read at all (a `CaptureFileError` with a reason) or decodes with:
/// read = decoded + ignored + malformed, and the reasons adding up to the counts; every
/// fault naming a record within the records read, with a reason; a malformed record for
/// any fault, and a fault for every malformed record; one delivered advertisement per
/// advertisement counted; and the first 8 advertisements' `decode` output lines written, JSON
/// and table.
public enum CaptureDecodeCheck {
    public struct Result: Sendable {
        /// The accounting of a file that could be read; nil when it could not.
        public var accounting: DecodeAccounting?
        /// Why the file could not be read at all.
        public var unreadable: CaptureFileError?
        /// The invariants broken, in words (empty when all hold).
        public var violations: [String] = []
    }

    /// Decodes the file at `path` and checks the invariants.
    public static func run(path: String) -> Result {
        var result = Result()
        var faults = 0
        var firstFault: DecodeIssue?
        var faultyRecords = Set<Int>()
        var outside: DecodeIssue?
        var latest: DecodeIssue?
        var delivered = 0
        do {
            let a = try CaptureDecoder.decode(
                path: path,
                onAdvertisement: { advertisement in
                    delivered += 1
                    // The `decode` output lines, JSON and table, as the tool prints them, must be
                    // writable whatever the record held.
                    if delivered <= 8 {
                        _ = advertisement.jsonObject(file: path).serialized
                        _ = DecodeTable.row(advertisement)
                    }
                },
                onIssue: { issue in
                    faults += 1
                    if firstFault == nil { firstFault = issue }
                    if faultyRecords.count < 1 << 16 { faultyRecords.insert(issue.record) }
                    if outside == nil && (issue.record < 1 || issue.error.reason.isEmpty) { outside = issue }
                    if issue.record > latest?.record ?? 0 { latest = issue }
                })
            result.accounting = a
            if !a.balances {
                result.violations.append(
                    "read \(a.recordsRead) ≠ decoded \(a.decoded) + ignored \(a.ignored) + malformed \(a.malformed), "
                        + "or the reasons do not add up"
                )
            }
            if let first = firstFault, a.malformed == 0 {
                result.violations.append("faults reported (\(first)) but no record is malformed")
            }
            if faultyRecords.count < 1 << 16 && faultyRecords.count < a.malformed {
                result.violations.append("\(a.malformed) records malformed but faults name only \(faultyRecords.count)")
            }
            if let bad = outside ?? latest.flatMap({ $0.record > a.recordsRead ? $0 : nil }) {
                result.violations.append("a fault outside the records read or without a reason: \(bad)")
            }
            if delivered != a.advertisements + a.advertisementsWithoutData {
                result.violations.append(
                    "\(delivered) advertisements delivered but \(a.advertisements + a.advertisementsWithoutData) "
                        + "counted"
                )
            }
        } catch {
            result.unreadable = error
            if error.reason.isEmpty { result.violations.append("an unreadable file without a reason") }
        }
        return result
    }
}
