@testable import NearbyMessages
import Testing

/// `FoundTable` against a second implementation, the standard `Dictionary`, under long seeded
/// runs of inserts, updates and removals: the same keys, the same entries, the same count.
@Suite struct FoundTableTests {
    typealias Entry = SubscriptionEngine.FoundEntry

    func check(_ table: FoundTable, _ model: [UInt64: Entry], _ context: String) {
        #expect(table.count == model.count, "\(context)")
        #expect(table.allKeys.sorted() == model.keys.sorted(), "\(context)")
        for (k, e) in model {
            #expect(table[k]?.generation == e.generation && table[k]?.lastAny == e.lastAny, "\(context): key \(k)")
        }
    }

    /// Keys as the engine makes them (`slot << 32 | message`) from few slots and messages,
    /// so that runs collide and removals have to shift later members of a run back.
    @Test(arguments: [(8, 40), (200, 500), (3, 5000)])
    func agreesWithADictionaryUnderRandomOperations(slots: Int, messages: Int) {
        var rng = EngineInvariantTests.SplitMix64(state: UInt64(slots * 7919 + messages))
        var table = FoundTable()
        var model: [UInt64: Entry] = [:]
        for step in 0..<20_000 {
            let k = UInt64(rng.below(slots)) << 32 | UInt64(rng.below(messages))
            switch rng.below(10) {
            case 0..<4:
                let e = Entry(generation: UInt32(step))
                table.set(k, e)
                model[k] = e
            case 4..<6:
                let t = Int64(step)
                let found = table.withUpdates { $0.update(k) { $0.see(.beacon, at: t) } }
                #expect(found == (model[k] != nil))
                model[k]?.see(.beacon, at: t)
            case 6:
                // A run of updates through the storage taken once, as the engine's touch does:
                // several keys, present or not, one of them possibly twice.
                let keys = (0..<4).map { _ in UInt64(rng.below(slots)) << 32 | UInt64(rng.below(messages)) } + [k]
                let t = Int64(step)
                let found = table.withUpdates { run in keys.map { key in run.update(key) { $0.see(.iBeacon, at: t) } } }
                #expect(found == keys.map { model[$0] != nil }, "step \(step)")
                for key in keys { model[key]?.see(.iBeacon, at: t) }
            default:
                table.remove(k)
                model[k] = nil
            }
            if step % 997 == 0 { check(table, model, "step \(step)") }
        }
        check(table, model, "end")
        for k in model.keys { table.remove(k) }
        #expect(table.isEmpty && table.allKeys.isEmpty)
    }

    @Test func aKeyWithBit63SetIsRefused() async {
        await #expect(processExitsWith: .failure) {
            var table = FoundTable()
            table.set(UInt64.max, SubscriptionEngine.FoundEntry(generation: 1))
        }
    }
}
