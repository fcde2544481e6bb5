import NearbyCapture

/// The promise of docs/damaged-captures.md ("only the damage is lost"), as an invariant:
/// damage that covers bytes `[a, b)` of a file loses only the records that overlap
/// `[a − k, b + k)` (`k` = `margin`), and the last record when it is the only whole record
/// after the damage, and the records under another reading of the bytes (btsnoop, classic
/// pcap: two or more records read from bytes inside the clean file's records, each starting
/// where the one before ends, the last ending exactly at the end of the file or where a clean
/// record read next starts; DAMAGE-11 and DAMAGE-12 may take that chain, as good a reading as
/// the true one: `otherReadings`), no byte is read twice (records and skipped ranges
/// come in file order and never overlap), and every container fault lies at a record that
/// may be lost or within `k` bytes of the damage. Checked on every damage class of
/// `CaptureDamage`, by the damage battery and, on each input that reads cleanly, by the
/// capture fuzz targets.
public enum DamageLocalityCheck {
    /// `k`, in bytes: a record ending or starting this close to the damage may be lost with
    /// it. 24 is the longest record header (btsnoop's): the last bytes of a record and the
    /// first bytes of the damage can make a header as plausible as the record's own end (a
    /// copied block after a record ending in zeros), and a hex text line that the damage
    /// runs into without a line end is the damage's line.
    public static let margin = 24

    /// Damages the file `clean` (at `path`) in the way `kind` says, at places drawn from
    /// `seed`, writes it to `damagedPath` and returns the invariant's violations in words:
    /// empty when it holds, or when the clean file has a container fault or no record, or a
    /// record that does not follow the one before (its clock steps by more than a day, or its
    /// drop count falls: the records after such a step are taken on the strength of the run
    /// they start, docs/damaged-captures.md, so damage within that run may cost them).
    public static func violations(
        clean: [UInt8], path: String, kind: CaptureDamage.Kind, seed: UInt64, damagedPath: String
    ) -> [String] {
        guard let layout = CaptureLayout(path: path, bytes: clean), !layout.hasStep else { return [] }
        var state = seed | 1
        let random = { (bound: Int) -> Int in
            // xorshift64*: the places are a function of the seed alone.
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return bound <= 1 ? 0 : Int(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 1) % bound
        }
        guard let damaged = CaptureDamage.apply(kind, to: clean, layout: layout, random: random),
            ScratchFile.write(damaged.bytes, to: damagedPath)
        else { return [] }
        return violations(damaged, layout: layout, path: damagedPath).map { "\(damaged): \($0)" }
    }

    /// The violations of the invariant by the file at `path`, damaged as `damaged` says from
    /// a clean file of records `layout`.
    static func violations(_ damaged: CaptureDamage, layout: CaptureLayout, path: String) -> [String] {
        guard let reader = try? CaptureFile.open(path) else {
            // A file that cannot be opened any more lost everything: only damage to the file
            // header may do that, and the model places none there.
            return damaged.placements.isEmpty ? [] : ["the damaged file cannot be opened"]
        }
        let zone = (damaged.damage.lowerBound - margin)..<(damaged.damage.upperBound + margin)
        // A run of records is two or more: a record alone between the damage and the end of
        // the file cannot be told from bytes that look like one.
        let after = damaged.placements.filter { $0.extent.lowerBound >= zone.upperBound }
        let mayBeLost = damaged.placements.filter { $0.extent.overlaps(zone) || (after.count == 1 && after[0] == $0) }
        let lowest = min(damaged.touched.lowerBound - margin, mayBeLost.map(\.extent.lowerBound).min() ?? .max)
        let highest = max(damaged.touched.upperBound + margin, mayBeLost.map(\.extent.upperBound).max() ?? 0)
        let faultZone = lowest...highest
        var problems: [String] = []
        var delivered: [Int: (Int64?, [UInt8])] = [:]
        // The records read, in order: where their data starts and where they end.
        var readOrder: [(data: Int, end: Int)] = []
        var covered = 0
        var lineStarts = [0]
        if layout.format == .hexText {
            for (i, byte) in damaged.bytes.enumerated() where byte == 0x0A { lineStarts.append(i + 1) }
        }
        func at(_ metadata: RecordMetadata, _ count: Int) -> Int? {
            guard layout.format == .hexText else { return metadata.fileOffset.map { Int($0) } }
            return metadata.line.flatMap { $0 <= lineStarts.count ? lineStarts[$0 - 1] : nil }
        }
        while problems.count < 4, let step = reader.next() {
            switch step {
            case .record(let r):
                guard let offset = at(r.metadata, r.bytes.count) else {
                    problems.append("record \(r.metadata.index) has no place in the file")
                    continue
                }
                if offset < covered {
                    problems.append("record \(r.metadata.index) at byte \(offset) reads bytes read before (\(covered))")
                }
                covered = offset + (layout.format == .hexText ? 1 : r.bytes.count)
                delivered[offset] = (r.metadata.timestampMicros, Array(r.bytes))
                readOrder.append((offset, offset + r.bytes.count))
            case .malformed(let fault):
                let (index, fileOffset, line, skipped) = (fault.index, fault.fileOffset, fault.line, fault.skipped)
                if let skipped {
                    if Int(skipped.range.lowerBound) < covered && layout.format != .hexText {
                        problems.append("fault \(index) skips \(skipped.range), bytes read before (\(covered))")
                    }
                    covered = max(covered, Int(skipped.range.upperBound))
                }
                let place = skipped.map { Int($0.range.lowerBound) } ?? fileOffset.map { Int($0) }
                if let place, !faultZone.contains(place) {
                    problems.append("fault \(index) at byte \(place) is away from the damage and the records it cuts")
                } else if place == nil, line == nil {
                    problems.append("fault \(index) does not say where it is")
                }
            }
        }
        let otherReadings = Self.otherReadings(readOrder, damaged, layout, after: zone.upperBound)
        for p in damaged.placements
        where !mayBeLost.contains(where: { $0.extent == p.extent })
            && !otherReadings.contains(where: { $0.overlaps(p.extent) })
        {
            let record = layout.records[p.record]
            let dataAt = layout.format == .hexText ? p.extent.lowerBound : p.extent.lowerBound + record.header
            guard let got = delivered[dataAt] else {
                problems.append("the record at bytes \(p.extent) was lost (clean record \(p.record + 1))")
                if problems.count >= 4 { break }
                continue
            }
            if got.1 != record.bytes || got.0 != record.timestampMicros {
                problems.append("the record at bytes \(p.extent) reads otherwise than in the clean file")
            }
        }
        return problems
    }

    /// The bytes other readings of the file cover (btsnoop, classic pcap): each a stretch of
    /// two or more records read one after another, none of them a clean record (their data
    /// starts where no clean record's does), each starting where the one before ends, the last
    /// ending exactly at the end of the file or, for a stretch that starts at `after` (the end
    /// of the damage and its margin) or later, where the next record read, a clean one,
    /// starts. Such records are headers inside clean records' data that chain as well as the
    /// clean records do: where the two chains meet, DAMAGE-12 takes the one with more records.
    static func otherReadings(
        _ read: [(data: Int, end: Int)], _ damaged: CaptureDamage, _ layout: CaptureLayout, after: Int
    ) -> [Range<Int>] {
        guard layout.format == .btsnoop || layout.format == .pcap else { return [] }
        let header = layout.format == .btsnoop ? 24 : 16
        let clean = Set(damaged.placements.map { $0.extent.lowerBound + header })
        var readings: [Range<Int>] = []
        var first = 0
        while first < read.count {
            guard !clean.contains(read[first].data) else {
                first += 1
                continue
            }
            var last = first
            while last + 1 < read.count, !clean.contains(read[last + 1].data),
                read[last + 1].data - header == read[last].end
            {
                last += 1
            }
            let end = read[last].end
            let start = read[first].data - header
            let rejoins = start >= after && last + 1 < read.count && read[last + 1].data - header == end
            if last > first && (end == damaged.bytes.count || rejoins) {
                readings.append(start..<end)
            }
            first = last + 1
        }
        return readings
    }
}
