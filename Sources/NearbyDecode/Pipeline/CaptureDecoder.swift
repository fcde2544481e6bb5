import NearbyBytes
import NearbyCapture
import NearbyFormats

/// The decode pipeline for one capture file: container → records → link layer →
/// advertisements → beacon frames, streaming (memory does not grow with the file) and
/// accounting for every record.
///
/// A record is malformed when its container, link layer or reports are damaged, or when
/// an advertisement in it has malformed AD data or a malformed beacon frame (RECORDS-7).
/// Whatever decoded cleanly before a fault is still delivered (RECORDS-8).
public enum CaptureDecoder {
    /// At most this many records are remembered as holding open chains (memory stays
    /// bounded when a chain never closes; past it, a record is not reclassified at the end).
    static let openChainRecordLimit = 65_536

    /// Decodes `path` into values: every advertisement (with or without AD data) in record
    /// order, every fault, and the file's accounting. Throws only when the file cannot be
    /// read at all. The advertisements are held in memory; `NearbyConformance.CaptureStream`
    /// gives them one at a time.
    public static func decode(
        path: String
    ) throws(CaptureFileError) -> (
        advertisements: [DecodedAdvertisement], issues: [DecodeIssue], accounting: DecodeAccounting
    ) {
        var advertisements: [DecodedAdvertisement] = []
        var issues: [DecodeIssue] = []
        let accounting = try decode(
            path: path, onAdvertisement: { advertisements.append($0) }, onIssue: { issues.append($0) })
        return (advertisements, issues, accounting)
    }

    /// Decodes `path`, calling `onAdvertisement` for each advertisement (with or without AD
    /// data) and `onIssue` for each fault, and returns the file's accounting. Throws only
    /// when the file cannot be read at all.
    ///
    /// Each decoded advertisement is lent to `onAdvertisement`, not copied: read it in place,
    /// copy it to keep it, or take it with `swap`; whatever is left is overwritten by the
    /// next one, and changes made to it change nothing in the decode.
    package static func decode(
        path: String,
        onAdvertisement: (inout DecodedAdvertisement) -> Void,
        onIssue: (DecodeIssue) -> Void
    ) throws(CaptureFileError) -> DecodeAccounting {
        decode(try CaptureFile.open(path), name: path, onAdvertisement: onAdvertisement, onIssue: onIssue)
    }

    /// Decodes what `reader` reads (a file, or a live source: `NearbyLive.LiveCapture`),
    /// naming it `name` in the issues, as `decode(path:onAdvertisement:onIssue:)` does.
    package static func decode(
        _ reader: any CaptureRecordReader, name path: String,
        onAdvertisement: (inout DecodedAdvertisement) -> Void,
        onIssue: (DecodeIssue) -> Void
    ) -> DecodeAccounting {
        var decoder = RecordDecoder()
        var run = Run(path: path)
        defer { run.release() }
        let slot = DecodedAdvertisement.advertisement(in: run.scratch)

        reading: while true {
            // Each record is lent, its bytes still in the reader's buffer (or libpcap's).
            let step = reader.read { record in
                run.tally.accounting.recordsRead += 1
                run.start(record.metadata)
                let outcome = decoder.decode(record, building: slot) {
                    run.deliver(onAdvertisement: onAdvertisement, onIssue: onIssue)
                }
                run.account(outcome, openChains: decoder.reassembler.pendingChainCount, onIssue: onIssue)
                return true
            }

            switch step {
            case .record:
                break
            case .malformed(let fault):
                // RECORDS-3, DAMAGE-16: a container fault or a skipped stretch is one record.
                run.tally.accounting.recordsRead += 1
                run.tally.countMalformed(fault.error.key)
                if let skipped = fault.skipped {
                    run.tally.accounting.bytesSkipped += skipped.count
                    if skipped.resynchronized { run.tally.accounting.resynchronizations += 1 }
                }
                var issue = DecodeIssue(
                    file: path, record: fault.index, recordFileOffset: nil, line: fault.line, error: fault.error)
                if let fileOffset = fault.fileOffset { issue.recordFileOffset = fileOffset - Int64(fault.error.offset) }
                onIssue(issue)
            case .end:
                break reading
            }
        }
        decoder.finish(building: slot) {
            let record = slot.pointee.record, address = slot.pointee.address
            run.fileOffset = nil
            run.line = nil
            run.deliver(onAdvertisement: onAdvertisement, onIssue: onIssue)
            // HCI-EXT-12: the record that carried the last fragment held data the capture never
            // completed: it becomes malformed (once), so every reported fault has a malformed record.
            if run.cleanWithOpenChains.remove(record) != nil {
                run.tally.accounting.decoded -= 1
                run.tally.accounting.malformed += 1
                run.tally.accounting.malformedByReason["ext-adv-report/incomplete-chain", default: 0] += 1
            }
            onIssue(
                DecodeIssue(
                    file: path, record: record, recordFileOffset: nil, line: nil,
                    error: DecodeError(
                        .extendedAdvertisingReport, .incompleteChain, at: 0,
                        "extended advertising data from \(address) was still incomplete at the end of the capture"),
                    inReassembledData: true))
        }
        return run.tally.finish()
    }

    /// What the decode of one capture keeps from record to record: the counts, the decoded
    /// advertisement it lends, and the record being decoded.
    private struct Run {
        let path: String
        /// One decoded advertisement for the whole decode, in which the record decoder
        /// builds each advertisement and the AD data is decoded, where the consumer reads
        /// it. The beacon array keeps its storage (no allocation per advertisement) unless
        /// the consumer kept a copy of it.
        let scratch: UnsafeMutablePointer<DecodedAdvertisement>
        var tally = Tally()
        /// Records counted decoded while an extended-advertising chain stayed open, so that
        /// a chain still open at the end of the capture can make its last record malformed.
        var cleanWithOpenChains: Set<Int> = []
        /// The record being decoded: where it is, and the first fault in its AD data.
        var index = 0
        var fileOffset: Int64?
        var line: Int?
        var firstDataFault: DecodeError?

        init(path: String) {
            self.path = path
            scratch = .allocate(capacity: 1)
            scratch.initialize(to: DecodedAdvertisement(Advertisement()))
        }

        func release() {
            scratch.deinitialize(count: 1)
            scratch.deallocate()
        }

        @inline(__always)
        mutating func start(_ metadata: RecordMetadata) {
            index = metadata.index
            fileOffset = metadata.fileOffset
            line = metadata.line
            if _slowPath(firstDataFault != nil) { firstDataFault = nil }
        }

        /// Decodes the AD data of the advertisement built in `scratch`, counts it, reports
        /// its faults and lends it to the consumer, in place (`inout`, never a copy).
        @inline(__always)
        mutating func deliver(
            onAdvertisement: (inout DecodedAdvertisement) -> Void, onIssue: (DecodeIssue) -> Void
        ) {
            scratch.pointee.decodeContents()
            tally.count(scratch.pointee)
            if !scratch.pointee.contents.errors.isEmpty { reportDataFaults(onIssue: onIssue) }
            onAdvertisement(&scratch.pointee)
        }

        @inline(never)
        mutating func reportDataFaults(onIssue: (DecodeIssue) -> Void) {
            let decoded = scratch.pointee
            let reassembled = (decoded.advertisement.extended?.fragments ?? 1) > 1
            for error in decoded.contents.errors {
                onIssue(
                    DecodeIssue(
                        file: path, record: decoded.advertisement.record, recordFileOffset: fileOffset,
                        line: line, error: error, inReassembledData: reassembled))
            }
            if firstDataFault == nil { firstDataFault = decoded.contents.errors.first }
        }

        /// Counts the record just decoded by its outcome (RECORDS-4 to RECORDS-7).
        @inline(__always)
        mutating func account(_ outcome: consuming RecordOutcome, openChains: Int, onIssue: (DecodeIssue) -> Void) {
            switch consume outcome {
            case .decoded:
                if _fastPath(firstDataFault == nil && openChains == 0 && cleanWithOpenChains.isEmpty) {
                    tally.accounting.decoded += 1
                } else {
                    accountDecoded(openChains: openChains)
                }
            case .ignored(let reason):
                tally.countIgnored(reason.rawValue)
            case .malformed(let error):
                accountMalformed(error, onIssue: onIssue)
            }
        }

        @inline(never)
        mutating func accountDecoded(openChains: Int) {
            if let fault = firstDataFault {
                tally.countMalformed(fault.key)
            } else {
                tally.accounting.decoded += 1
                if openChains > 0 && cleanWithOpenChains.count < CaptureDecoder.openChainRecordLimit {
                    cleanWithOpenChains.insert(index)
                }
            }
            if openChains == 0 && !cleanWithOpenChains.isEmpty {
                cleanWithOpenChains.removeAll(keepingCapacity: true)
            }
        }

        @inline(never)
        mutating func accountMalformed(_ error: DecodeError, onIssue: (DecodeIssue) -> Void) {
            tally.countMalformed(error.key)
            onIssue(DecodeIssue(file: path, record: index, recordFileOffset: fileOffset, line: line, error: error))
        }
    }

    /// The accounting of a decode, with beacons counted by `BeaconFrame.typeIndex` until the
    /// end, when `finish` names them.
    private struct Tally {
        var accounting = DecodeAccounting()
        /// One count per `BeaconFrame.typeNames` entry, which `init` checks.
        var beaconCounts = InlineArray<11, Int>(repeating: 0)

        init() {
            precondition(beaconCounts.count == BeaconFrame.typeNames.count, "one count per beacon type name")
        }

        @inline(__always)
        mutating func count(_ decoded: borrowing DecodedAdvertisement) {
            if decoded.advertisement.hasADData {
                accounting.advertisements += 1
            } else {
                accounting.advertisementsWithoutData += 1
            }
            if decoded.advertisement.extended?.truncated == true { accounting.truncatedAdvertisements += 1 }
            for beacon in decoded.beacons { beaconCounts[beacon.typeIndex] += 1 }
        }

        /// Counts one malformed record under `key` (`layer/code`).
        @inline(never)
        mutating func countMalformed(_ key: String) {
            accounting.malformed += 1
            accounting.malformedByReason[key, default: 0] += 1
        }

        @inline(never)
        mutating func countIgnored(_ key: String) {
            accounting.ignored += 1
            accounting.ignoredByReason[key, default: 0] += 1
        }

        consuming func finish() -> DecodeAccounting {
            for index in beaconCounts.indices where beaconCounts[index] > 0 {
                let count = beaconCounts[index]
                accounting.beaconsByType[BeaconFrame.typeNames[index], default: 0] += count
            }
            return accounting
        }
    }
}
