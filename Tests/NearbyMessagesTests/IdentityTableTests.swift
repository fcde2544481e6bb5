import NearbySynthesis
import NearbyTestSupport
import Testing

@testable import NearbyMessages

/// `IdentityTable` against a second implementation, the standard `Dictionary`: the same
/// identities found with the same values, and absent ones not found, through growth.
@Suite struct IdentityTableTests {
    /// Identities of every kind and length, many sharing words (same namespace, different
    /// instance; same UUID, different minor), as captures give them.
    func identity(_ rng: inout SeededGenerator) -> SightingIdentity {
        let kinds: [SightingIdentity.Kind] = [.token, .eddystoneUID, .iBeacon, .altBeacon, .eddystoneEID]
        let kind = kinds[rng.below(kinds.count)]
        let count = kind == .token ? 6 + rng.below(11) : kind == .eddystoneEID ? 8 : kind == .eddystoneUID ? 16 : 20
        // Few distinct bytes: identities differ in one or two bytes, often in the last word.
        let bytes = (0..<count).map { i in UInt8(i < count - 2 ? 7 : rng.below(6)) }
        return SightingIdentity(kind, bytes)
    }

    @Test func agreesWithADictionaryThroughGrowth() {
        var rng = SeededGenerator(seed: 2026)
        var table = IdentityTable<Int32>()
        var model: [SightingIdentity: Int32] = [:]
        for step in 0..<3_000 {
            let id = identity(&rng)
            #expect(table[id] == model[id], "step \(step): lookup before insert")
            if model[id] == nil {
                table.insert(id, Int32(step))
                model[id] = Int32(step)
            }
        }
        #expect(table.count == model.count)
        for (id, value) in model { #expect(table[id] == value) }
        // Same bytes, another kind or length: a different identity.
        for (id, _) in model.prefix(50) where id.kind != .altBeacon {
            let other = SightingIdentity(.altBeacon, id.bytes)
            #expect(table[other] == model[other])
        }
    }

    /// Inserts and removals mixed, so that removals shift later members of a probe run back:
    /// every identity present is found with its value and every removed one is gone.
    @Test func agreesWithADictionaryThroughRemovals() {
        var rng = SeededGenerator(seed: 53)
        var table = IdentityTable<Int32>()
        var model: [SightingIdentity: Int32] = [:]
        for step in 0..<20_000 {
            let id = identity(&rng)
            if rng.below(3) == 0 {
                table.remove(id)
                model[id] = nil
            } else if model[id] == nil {
                table.insert(id, Int32(step))
                model[id] = Int32(step)
            }
            if step % 499 == 0 {
                #expect(table.count == model.count, "step \(step)")
                for (id, value) in model { #expect(table[id] == value, "step \(step)") }
            }
        }
        for id in model.keys { table.remove(id) }
        #expect(table.count == 0)
        for _ in 0..<100 { #expect(table[identity(&rng)] == nil) }
    }

    @Test func aDefaultIsInsertedOnceAndModifiedInPlace() {
        var table = IdentityTable<[Int32]>()
        let a = SightingIdentity(.iBeacon, [UInt8](repeating: 1, count: 20))
        let b = SightingIdentity(.iBeacon, [UInt8](repeating: 2, count: 20))
        table[a, default: []].append(1)
        table[a, default: []].append(2)
        table[b, default: []].append(3)
        #expect(table[a] == [1, 2])
        #expect(table[b] == [3])
        #expect(table.count == 2)
        #expect(table[SightingIdentity(.iBeacon, [UInt8](repeating: 3, count: 20))] == nil)
    }
}
