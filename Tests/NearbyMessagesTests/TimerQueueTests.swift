import NearbySynthesis
import NearbyTestSupport
import Testing

@testable import NearbyMessages

/// `TimerQueue` against a second implementation: a plain array searched for its least timer
/// by the same total order. Pushes, pops and replacements of the first timer are interleaved,
/// as the engine does (a lost timer that fires early is set again for a later deadline, by
/// `replaceFirst`), over few distinct deadlines so that ties on the deadline are decided by
/// kind, slot and message.
@Suite struct TimerQueueTests {
    func timer(_ rng: inout SeededGenerator) -> TimerQueue.Timer {
        let kinds: [TimerQueue.Kind] = [.lost, .subscriptionExpiry, .publicationExpiry]
        return TimerQueue.Timer(
            deadline: Int64(rng.below(40)), kind: kinds[rng.below(3)], slot: Int32(rng.below(5)),
            message: Int32(rng.below(7)) - 1, generation: UInt32(rng.below(1000)))
    }

    /// The key the order is defined on (the generation takes no part in it).
    func key(_ t: TimerQueue.Timer) -> [Int64] {
        [t.deadline, Int64(t.kind.rawValue), Int64(t.slot), Int64(t.message)]
    }

    @Test func popsInTheTotalOrderWhateverThePushes() {
        var rng = SeededGenerator(seed: 8)
        var queue = TimerQueue()
        var model: [TimerQueue.Timer] = []
        var popped = 0
        var replaced = 0
        for step in 0..<20_000 {
            let op = rng.below(6)
            if op < 3 || model.isEmpty {
                let t = timer(&rng)
                queue.push(t)
                model.append(t)
            } else if op == 3 {
                // The first timer replaced by another in one sift, as a lost timer is re-set.
                let least = model.indices.min { key(model[$0]).lexicographicallyPrecedes(key(model[$1])) }!
                let t = timer(&rng)
                queue.replaceFirst(with: t)
                model[least] = t
                replaced += 1
            } else {
                let least = model.indices.min { key(model[$0]).lexicographicallyPrecedes(key(model[$1])) }!
                let expected = model.remove(at: least)
                guard let got = queue.pop() else {
                    Issue.record("step \(step): the queue was empty with \(model.count + 1) timers pushed")
                    return
                }
                #expect(key(got) == key(expected), "step \(step)")
                popped += 1
            }
            #expect(
                queue.first.map(key) == model.min { key($0).lexicographicallyPrecedes(key($1)) }.map(key),
                "step \(step): first")
        }
        // Drain: every timer comes out, in order, then nothing.
        var previous: [Int64]?
        while let t = queue.pop() {
            if let previous { #expect(!key(t).lexicographicallyPrecedes(previous)) }
            previous = key(t)
            popped += 1
            model.removeLast()
        }
        #expect(model.isEmpty)
        #expect(queue.isEmpty && queue.pop() == nil)
        #expect(popped > 5_000)
        #expect(replaced > 2_000)
    }
}
