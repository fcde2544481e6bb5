/// A way a capture file gets damaged (docs/damaged-captures.md, "Damage classes"), applied
/// to a clean file's bytes around its records: the damage battery's and the capture fuzz
/// targets' model of what only the damage may cost.
public struct CaptureDamage: Sendable, CustomStringConvertible {
    public enum Kind: String, CaseIterable, Sendable {
        /// 1 to 4,096 bytes set to 0 from a byte inside a record.
        case zeroBlock = "zero-block"
        /// The 1 to 2,048 bytes before an offset written again at that offset.
        case duplicateBlock = "duplicate-block"
        /// 1 to 64 random bytes inserted at an offset.
        case insertBytes = "insert-bytes"
        /// One or two bits flipped in one byte of a record header.
        case flipHeaderBits = "flip-header-bits"
        /// One bit flipped in a record's length field.
        case flipLengthBits = "flip-length-bits"
        /// The file followed by itself, file header included.
        case concatenate
        /// The file cut inside a record.
        case truncate
    }

    public var kind: Kind
    /// The damaged file.
    public var bytes: [UInt8]
    /// The damaged bytes, as offsets in the damaged file (empty at the point where bytes
    /// were cut away or two files meet).
    public var damage: Range<Int>
    /// Where each clean record lies, whole and unchanged, in the damaged file: its index in
    /// `CaptureLayout.records` of the clean file and its extent (the concatenation holds
    /// every record twice).
    public var placements: [(record: Int, extent: Range<Int>)]
    /// The damage and the clean records it cuts into, as offsets in the damaged file: where
    /// the faults it causes lie.
    public var touched: Range<Int>

    public var description: String { "\(kind.rawValue) at \(damage.lowerBound)..<\(damage.upperBound)" }

    /// Damages `clean` (whose records are `layout`'s) in the way `kind` says, at places and
    /// with bytes drawn from `random` (values in 0..<bound); nil when the file has no record
    /// to damage.
    public static func apply(
        _ kind: Kind, to clean: [UInt8], layout: CaptureLayout, random: (Int) -> Int
    ) -> CaptureDamage? {
        let records = layout.records
        let damageable = records.filter { $0.extent.lowerBound >= layout.headerEnd }
        guard !damageable.isEmpty else { return nil }
        let r = damageable[random(damageable.count)]
        var bytes = clean
        var damage: Range<Int>
        var shift = 0
        var from = Int.max
        switch kind {
        case .zeroBlock:
            let start = r.extent.lowerBound + random(r.extent.count)
            let end = min(clean.count, start + 1 + random(4_096))
            bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
            damage = start..<end
        case .duplicateBlock, .insertBytes:
            let at = r.extent.lowerBound + random(r.extent.count + 1)
            let inserted: [UInt8]
            if kind == .duplicateBlock {
                let n = 1 + random(min(2_048, at - layout.headerEnd))
                inserted = Array(clean[(at - n)..<at])
            } else {
                inserted = (0...random(64)).map { _ in UInt8(random(256)) }
            }
            bytes.insert(contentsOf: inserted, at: at)
            damage = at..<(at + inserted.count)
            (shift, from) = (inserted.count, at)
        case .flipHeaderBits:
            let at = r.extent.lowerBound + random(max(1, r.header))
            bytes[at] ^= UInt8(1 << random(8)) | UInt8(random(2) << random(8))
            if bytes[at] == clean[at] { bytes[at] ^= 1 }
            damage = at..<(at + 1)
        case .flipLengthBits:
            // Hex text has no length field: a bit of one of the line's first 4 bytes.
            let at = r.extent.lowerBound + r.lengthField + random(min(4, r.extent.count - r.lengthField))
            bytes[at] ^= UInt8(1 << random(8))
            damage = at..<(at + 1)
        case .concatenate:
            bytes += clean
            damage = clean.count..<(clean.count + layout.fileHeaderLength)
        case .truncate:
            let at = r.extent.lowerBound + 1 + random(max(1, r.extent.count - 1))
            bytes.removeSubrange(at...)
            damage = at..<at
        }
        var placements: [(record: Int, extent: Range<Int>)] = []
        var touched = damage
        for (i, record) in records.enumerated() {
            let e = record.extent
            let lower = e.lowerBound >= from ? e.lowerBound + shift : e.lowerBound
            let moved = lower..<(e.upperBound > from ? e.upperBound + shift : e.upperBound)
            if moved.upperBound <= bytes.count, !moved.overlaps(damage), moved.count == e.count {
                placements.append((i, moved))
            } else {
                let upper = min(bytes.count, max(touched.upperBound, moved.upperBound))
                touched = min(touched.lowerBound, moved.lowerBound)..<upper
            }
            if kind == .concatenate {
                placements.append((i, (e.lowerBound + clean.count)..<(e.upperBound + clean.count)))
            }
        }
        return CaptureDamage(kind: kind, bytes: bytes, damage: damage, placements: placements, touched: touched)
    }
}
