import NearbyBytes
import NearbyRunner

extension ValidateRun {
    /// The AD types a decoder passes over (AD-5: Flags, the lists of 16-bit service UUIDs, local
    /// names, the Tx Power Level): removing such a structure leaves the expected result as it is.
    static let passedOverTypes: Set<UInt8> = [0x01, 0x02, 0x03, 0x08, 0x09, 0x0A]

    /// For a frame vector given as AD data that the implementation fails: the AD data left when
    /// the structures a decoder passes over (AD-5) are removed, one at a time, each removal kept
    /// while the implementation still fails the vector, its expectation unchanged. Nil when the
    /// vector is not AD data expecting beacons, or no structure could go. Each trial is a
    /// request like any other, so a trial the implementation crashes on keeps its structure.
    mutating func minimizedFrame(_ v: Vector) -> [UInt8]? {
        guard case .frame(.adData(let bytes)) = v.input, case .beacons = v.expectation,
            var structures = Self.structures(bytes)
        else { return nil }
        var removed = false
        var i = 0
        while i < structures.count {
            guard structures[i].count >= 2, Self.passedOverTypes.contains(structures[i][1]) else {
                i += 1
                continue
            }
            var trial = structures
            trial.remove(at: i)
            var w = v
            w.input = .frame(.adData(trial.flatMap { $0 }))
            if let r = result(for: w), r.status == .fail {
                structures = trial
                removed = true
            } else {
                i += 1
            }
        }
        return removed ? structures.flatMap { $0 } : nil
    }

    /// AD data cut into its structures (length octet, type, data: AD-1), or nil when a length
    /// runs past the end or is 0 before the end.
    static func structures(_ bytes: [UInt8]) -> [[UInt8]]? {
        var out: [[UInt8]] = []
        var at = 0
        while at < bytes.count {
            let n = Int(bytes[at])
            guard n > 0, at + 1 + n <= bytes.count else { return nil }
            out.append(Array(bytes[at..<(at + 1 + n)]))
            at += 1 + n
        }
        return out
    }
}
