import NearbyDecode
import NearbyJSON

/// A capture file to decode: pcap or pcapng (through libpcap), btsnoop, or hex text, with any
/// link layer the project reads (docs/spec/containers.md, docs/spec/hci.md).
///
/// ```swift
/// let capture = try CaptureFile(path: "Captures/synthetic/office-walk/phone.pcap").decoded()
/// for advertisement in capture where !advertisement.beacons.isEmpty { … }
/// print(capture.records.read, capture.records.malformed)
/// ```
public struct CaptureFile: Sendable, Hashable {
    /// The file's path, as given (it names the file in issues).
    public var path: String

    /// Names a capture file; nothing is read until ``decoded()``.
    public init(path: String) {
        self.path = path
    }

    /// The file decoded as it is read: advertisements, faults and finally the record counts,
    /// as an asynchronous sequence in memory bounded however long the capture.
    public func stream() -> CaptureStream { CaptureStream(path: path) }

    /// Decodes the whole file into values: every advertisement in record order, the record
    /// counts and every fault. Damage inside the file is reported as issues and decoding goes
    /// on past it; only a file that cannot be read at all throws (`capture/unreadable`).
    ///
    /// The advertisements are held in memory (a few hundred bytes each); for captures of
    /// millions of advertisements, ``stream()`` gives them one at a time.
    public func decoded() throws(ConformanceError) -> DecodedCapture {
        var advertisements: [CapturedAdvertisement] = []
        var issues: [CaptureIssue] = []
        let accounting: DecodeAccounting
        do {
            accounting = try CaptureDecoder.decode(
                path: path,
                onAdvertisement: { advertisements.append(CapturedAdvertisement($0.jsonObject(file: path))) },
                onIssue: { issues.append(CaptureIssue($0)) })
        } catch {
            throw ConformanceError(.captureUnreadable, file: path, error.reason)
        }
        return DecodedCapture(advertisements: advertisements, records: RecordCounts(accounting), issues: issues)
    }
}
