import NearbySynthesis
import NearbyTestSupport
import Testing

@testable import NearbyMessages

/// `FoundTable` against a second implementation, the standard `Dictionary`, under long seeded
/// runs of inserts, updates and removals: the same keys, the same entries, the same count.
@Suite struct FoundTableTests {
    typealias Entry = FoundTable.Entry

    func check(_ table: FoundTable, _ model: [FoundKey: Entry], _ context: String) {
        #expect(table.count == model.count, "\(context)")
        #expect(table.allKeys.sorted() == model.keys.sorted(), "\(context)")
        for (k, e) in model {
            #expect(table[k]?.generation == e.generation && table[k]?.seen == e.seen, "\(context): key \(k)")
        }
        // Each subscription's list holds exactly its pairs' messages.
        for s in Set(model.keys.map(\.subscription)) {
            let expected = model.keys.filter { $0.subscription == s }.map(\.message).sorted()
            #expect(table.messages(of: s).sorted() == expected, "\(context): subscription \(s)")
        }
    }

    func key(_ slot: Int, _ message: Int) -> FoundKey { FoundKey(subscription: Int32(slot), message: Int32(message)) }

    /// Keys from few subscriptions and messages,
    /// so that runs collide and removals have to shift later members of a run back.
    @Test(arguments: [(8, 40), (200, 500), (3, 5000)])
    func agreesWithADictionaryUnderRandomOperations(slots: Int, messages: Int) {
        var rng = SeededGenerator(seed: UInt64(slots * 7919 + messages))
        var table = FoundTable()
        var model: [FoundKey: Entry] = [:]
        for step in 0..<20_000 {
            let k = key(rng.below(slots), rng.below(messages))
            switch rng.below(10) {
            case 0..<4:
                let e = Entry(generation: UInt32(step))
                table.set(k, e)
                model[k] = e
            case 4..<6:
                let t = Int64(step)
                let found = table.withUpdates { $0.update(k) { $0.seen[.beacon] = t } }
                #expect(found == (model[k] != nil))
                model[k]?.seen[.beacon] = t
            case 6:
                // A run of updates through the storage taken once, as the engine's touch does:
                // several keys, present or not, one of them possibly twice.
                let keys = (0..<4).map { _ in key(rng.below(slots), rng.below(messages)) } + [k]
                let t = Int64(step)
                let found = table.withUpdates { run in keys.map { key in run.update(key) { $0.seen[.iBeacon] = t } } }
                #expect(found == keys.map { model[$0] != nil }, "step \(step)")
                for key in keys { model[key]?.seen[.iBeacon] = t }
            case 7 where step % 50 == 0:
                // A subscription ends: all its pairs go at once.
                let gone = table.removeAll(of: k.subscription).sorted()
                let expected = model.keys.filter { $0.subscription == k.subscription }
                #expect(gone == expected.map(\.message).sorted(), "step \(step)")
                for key in expected { model[key] = nil }
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

    @Test func aKeyWithNegativeIndicesIsRefused() async {
        await #expect(processExitsWith: .failure) {
            var table = FoundTable()
            table.set(FoundKey(subscription: -1, message: -1), FoundTable.Entry(generation: 1))
        }
    }
}
