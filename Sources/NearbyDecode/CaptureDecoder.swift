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
    public static func decode(
        path: String,
        onAdvertisement: (DecodedAdvertisement) -> Void,
        onIssue: (DecodeIssue) -> Void
    ) throws(CaptureFileError) -> DecodeAccounting {
        let reader = try CaptureFile.open(path)
        var decoder = RecordDecoder()
        var tally = Tally()
        // Records counted decoded while an extended-advertising chain stayed open, so that a
        // chain still open at the end of the capture can make its last record malformed.
        var cleanWithOpenChains: Set<Int> = []

        // One decoded advertisement, replaced for each: its beacon array keeps its storage
        // (no allocation per advertisement), unless the consumer kept a copy of it.
        var scratch = DecodedAdvertisement(Advertisement(
            record: 0, timestampMicros: nil, source: .hciAdvertisingReport, eventTypeRaw: 0,
            address: BluetoothAddress(rawValue: 0), addressType: AddressType(rawValue: 0), rssiDBm: nil, data: nil))

        // The counts and the scratch value are passed `inout`: captured by this function and
        // the closures calling it, they were checked for exclusive access at run time on every
        // advertisement.
        func deliver(_ advertisement: consuming Advertisement, fileOffset: Int64?, line: Int?, into tally: inout Tally,
                     reusing decoded: inout DecodedAdvertisement) -> DecodeError? {
            decoded.replace(with: advertisement)
            tally.count(decoded)
            // Faults are rare: the clean path does not touch (retain) the array of errors.
            var firstError: DecodeError?
            if !decoded.contents.errors.isEmpty {
                let reassembled = (decoded.advertisement.extended?.fragments ?? 1) > 1
                for error in decoded.contents.errors {
                    onIssue(DecodeIssue(file: path, record: decoded.advertisement.record, recordFileOffset: fileOffset,
                                        line: line, error: error, inReassembledData: reassembled))
                }
                firstError = decoded.contents.errors.first
            }
            onAdvertisement(decoded)
            return firstError
        }

        while let result = reader.next() {
            tally.accounting.recordsRead += 1
            // Consumed, and the advertisement below declared `consuming`: each is moved on
            // rather than copied (a retain and a release of the record's bytes each).
            switch consume result {
            case .malformed(let index, let fileOffset, let line, let error):
                tally.accounting.malformed += 1
                tally.accounting.malformedByReason[error.key, default: 0] += 1
                var issue = DecodeIssue(file: path, record: index, recordFileOffset: nil, line: line, error: error)
                if let fileOffset { issue.recordFileOffset = fileOffset - Int64(error.offset) }
                onIssue(issue)
            case .record(let record):
                var firstDataFault: DecodeError?
                let outcome = decoder.decode(record) { (advertisement: consuming Advertisement) in
                    if let fault = deliver(advertisement, fileOffset: record.fileOffset, line: record.line,
                                           into: &tally, reusing: &scratch),
                       firstDataFault == nil {
                        firstDataFault = fault
                    }
                }
                switch outcome {
                case .decoded:
                    if let fault = firstDataFault {
                        tally.accounting.malformed += 1
                        tally.accounting.malformedByReason[fault.key, default: 0] += 1
                    } else {
                        tally.accounting.decoded += 1
                        if decoder.reassembler.pendingChainCount > 0 && cleanWithOpenChains.count < Self.openChainRecordLimit {
                            cleanWithOpenChains.insert(record.index)
                        }
                    }
                    if decoder.reassembler.pendingChainCount == 0 && !cleanWithOpenChains.isEmpty { cleanWithOpenChains.removeAll(keepingCapacity: true) }
                case .ignored(let reason):
                    tally.accounting.ignored += 1
                    tally.accounting.ignoredByReason[reason.rawValue, default: 0] += 1
                case .malformed(let error):
                    tally.accounting.malformed += 1
                    tally.accounting.malformedByReason[error.key, default: 0] += 1
                    onIssue(DecodeIssue(file: path, record: record.index, recordFileOffset: record.fileOffset,
                                        line: record.line, error: error))
                }
            }
        }
        decoder.finish { advertisement in
            _ = deliver(advertisement, fileOffset: nil, line: nil, into: &tally, reusing: &scratch)
            // The record that carried the last fragment held data the capture never completed:
            // it becomes malformed (once), so every reported fault has a malformed record.
            if cleanWithOpenChains.remove(advertisement.record) != nil {
                tally.accounting.decoded -= 1
                tally.accounting.malformed += 1
                tally.accounting.malformedByReason["ext-adv-report/incomplete-chain", default: 0] += 1
            }
            onIssue(DecodeIssue(
                file: path, record: advertisement.record, recordFileOffset: nil, line: nil,
                error: DecodeError(.extendedAdvertisingReport, .incompleteChain, at: 0,
                                   "extended advertising data from \(advertisement.address) was still incomplete at the end of the capture"),
                inReassembledData: true))
        }
        return tally.finish()
    }

    /// The accounting of a decode, with beacons counted by `BeaconFrame.typeIndex` until the
    /// end (a dictionary update per beacon costs more than the rest of counting).
    private struct Tally {
        var accounting = DecodeAccounting()
        var beaconCounts = [Int](repeating: 0, count: BeaconFrame.typeNames.count)

        mutating func count(_ decoded: borrowing DecodedAdvertisement) {
            if decoded.advertisement.hasADData {
                accounting.advertisements += 1
            } else {
                accounting.advertisementsWithoutData += 1
            }
            if decoded.advertisement.extended?.truncated == true { accounting.truncatedAdvertisements += 1 }
            for beacon in decoded.beacons { beaconCounts[beacon.typeIndex] += 1 }
        }

        consuming func finish() -> DecodeAccounting {
            for (index, count) in beaconCounts.enumerated() where count > 0 {
                accounting.beaconsByType[BeaconFrame.typeNames[index], default: 0] += count
            }
            return accounting
        }
    }
}
