import NearbyBytes
import NearbyCapture
import NearbyFormats

/// The decode pipeline for one capture file: container → records → link layer →
/// advertisements → beacon frames, streaming (memory does not grow with the file) and
/// accounting for every record.
///
/// A record is malformed when its container, link layer or reports are damaged, or when
/// an advertisement in it has malformed AD data or a malformed beacon frame. Whatever
/// decoded cleanly before a fault is still delivered.
public enum CaptureDecoder {
    /// At most this many records are remembered as holding open chains (memory stays
    /// bounded when a chain never closes; past it, a record is not reclassified at the end).
    static let openChainRecordLimit = 65_536

    /// Decodes `path`, calling `onAdvertisement` for each advertisement (with or without AD
    /// data) and `onIssue` for each fault, and returns the file's accounting. Throws only
    /// when the file cannot be read at all.
    ///
    /// Each decoded advertisement is lent to `onAdvertisement`, not copied: read it in place,
    /// copy it to keep it, or take it with `swap`; whatever is left is overwritten by the
    /// next one, and changes made to it change nothing in the decode.
    public static func decode(
        path: String,
        onAdvertisement: (inout DecodedAdvertisement) -> Void,
        onIssue: (DecodeIssue) -> Void
    ) throws(CaptureFileError) -> DecodeAccounting {
        decode(try CaptureFile.open(path), name: path, onAdvertisement: onAdvertisement, onIssue: onIssue)
    }

    /// Decodes what `reader` reads (a file, or a live source: `NearbyLive.LiveCapture`),
    /// naming it `name` in the issues, as `decode(path:onAdvertisement:onIssue:)` does.
    public static func decode(
        _ reader: any CaptureRecordReader, name path: String,
        onAdvertisement: (inout DecodedAdvertisement) -> Void,
        onIssue: (DecodeIssue) -> Void
    ) -> DecodeAccounting {
        var decoder = RecordDecoder()
        var tally = Tally()
        // Records counted decoded while an extended-advertising chain stayed open, so that a
        // chain still open at the end of the capture can make its last record malformed.
        var cleanWithOpenChains: Set<Int> = []

        // One decoded advertisement for the whole decode, in which the record decoder builds
        // each advertisement and the AD data is decoded, where the consumer reads it. The
        // beacon array keeps its storage (no allocation per advertisement) unless the
        // consumer kept a copy of it.
        let scratch = UnsafeMutablePointer<DecodedAdvertisement>.allocate(capacity: 1)
        scratch.initialize(to: DecodedAdvertisement(Advertisement()))
        defer {
            scratch.deinitialize(count: 1)
            scratch.deallocate()
        }
        let slot = DecodedAdvertisement.advertisement(in: scratch)

        // The counts are passed `inout` to the closures that update them, and the decoded
        // advertisement too: a value read from the pointer would be copied.
        func deliver(
            _ decoded: inout DecodedAdvertisement, fileOffset: Int64?, line: Int?, into tally: inout Tally
        ) -> DecodeError? {
            decoded.decodeContents()
            tally.count(decoded)
            // Faults are rare: the clean path does not touch (retain) the array of errors.
            var firstError: DecodeError?
            if !decoded.contents.errors.isEmpty {
                let reassembled = (decoded.advertisement.extended?.fragments ?? 1) > 1
                for error in decoded.contents.errors {
                    onIssue(
                        DecodeIssue(
                            file: path, record: decoded.advertisement.record, recordFileOffset: fileOffset,
                            line: line, error: error, inReassembledData: reassembled))
                }
                firstError = decoded.contents.errors.first
            }
            onAdvertisement(&decoded)
            return firstError
        }

        reading: while true {
            // Each record is lent, its bytes still in the reader's buffer (or libpcap's).
            let step = reader.read { record in
                var firstDataFault: DecodeError?
                let fileOffset = record.metadata.fileOffset, line = record.metadata.line
                let outcome = decoder.decode(record, building: slot) {
                    if let fault = deliver(&scratch.pointee, fileOffset: fileOffset, line: line, into: &tally),
                        firstDataFault == nil
                    {
                        firstDataFault = fault
                    }
                }
                switch outcome {
                case .decoded:
                    let openChains = decoder.reassembler.pendingChainCount
                    if let fault = firstDataFault {
                        tally.countMalformed(fault.key)
                    } else {
                        tally.accounting.decoded += 1
                        if openChains > 0 && cleanWithOpenChains.count < Self.openChainRecordLimit {
                            cleanWithOpenChains.insert(record.metadata.index)
                        }
                    }
                    if openChains == 0 && !cleanWithOpenChains.isEmpty {
                        cleanWithOpenChains.removeAll(keepingCapacity: true)
                    }
                case .ignored(let reason):
                    tally.countIgnored(reason.rawValue)
                case .malformed(let error):
                    tally.countMalformed(error.key)
                    onIssue(
                        DecodeIssue(
                            file: path, record: record.metadata.index, recordFileOffset: fileOffset,
                            line: line, error: error))
                }
            }

            switch step {
            case .record:
                tally.accounting.recordsRead += 1
            case .malformed(let index, let fileOffset, let line, let error, let skipped):
                tally.accounting.recordsRead += 1
                tally.countMalformed(error.key)
                if let skipped {
                    tally.accounting.bytesSkipped += skipped.count
                    if skipped.resynchronized { tally.accounting.resynchronizations += 1 }
                }
                var issue = DecodeIssue(file: path, record: index, recordFileOffset: nil, line: line, error: error)
                if let fileOffset { issue.recordFileOffset = fileOffset - Int64(error.offset) }
                onIssue(issue)
            case .end:
                break reading
            }
        }
        decoder.finish(building: slot) {
            let record = slot.pointee.record, address = slot.pointee.address
            _ = deliver(&scratch.pointee, fileOffset: nil, line: nil, into: &tally)
            // The record that carried the last fragment held data the capture never completed:
            // it becomes malformed (once), so every reported fault has a malformed record.
            if cleanWithOpenChains.remove(record) != nil {
                tally.accounting.decoded -= 1
                tally.accounting.malformed += 1
                tally.accounting.malformedByReason["ext-adv-report/incomplete-chain", default: 0] += 1
            }
            onIssue(
                DecodeIssue(
                    file: path, record: record, recordFileOffset: nil, line: nil,
                    error: DecodeError(
                        .extendedAdvertisingReport, .incompleteChain, at: 0,
                        "extended advertising data from \(address) was still incomplete at the end of the capture"),
                    inReassembledData: true))
        }
        return tally.finish()
    }

    /// The accounting of a decode, with beacons counted by `BeaconFrame.typeIndex` until the
    /// end (a dictionary update per beacon costs more than the rest of counting).
    private struct Tally {
        var accounting = DecodeAccounting()
        /// One count per `BeaconFrame.typeNames` entry, which `init` checks.
        var beaconCounts = InlineArray<11, Int>(repeating: 0)

        init() {
            precondition(beaconCounts.count == BeaconFrame.typeNames.count, "one count per beacon type name")
        }

        // Inlined: called, it was handed a copy of the decoded advertisement (152 bytes).
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
