import NearbySynthesis

extension SeededGenerator {
    /// Uniform integer in 0 ..< n; n > 0.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
