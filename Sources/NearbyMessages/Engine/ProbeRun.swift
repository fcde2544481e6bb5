/// The rule both linearly probed tables of the engine (`FoundTable`, `IdentityTable`) remove
/// by, without tombstones: after a removal leaves a hole, each later member of the probe run
/// moves back into the hole unless its home lies cyclically in `(hole, position]`, where it
/// would no longer be found.
enum ProbeRun {
    /// Whether the member at `position`, whose home is `home`, moves into `hole` (all three
    /// places of one table).
    @inline(__always)
    static func fillsHole(_ hole: Int, from position: Int, home: Int) -> Bool {
        let staysPut = hole <= position ? (home > hole && home <= position) : (home > hole || home <= position)
        return !staysPut
    }
}
