/// A binary min-heap of engine timers ordered by (deadline, kind, slot, message), a total
/// order, so timers due at the same instant pop in a reproducible order.
struct TimerQueue: Sendable {
    enum Kind: UInt8, Sendable {
        case lost = 0
        case subscriptionExpiry = 1
        case publicationExpiry = 2
    }

    struct Timer: Sendable {
        var deadline: Int64
        var kind: Kind
        var slot: Int32
        var message: Int32
        var generation: UInt32

        @inline(__always) static func < (a: Timer, b: Timer) -> Bool {
            if a.deadline != b.deadline { return a.deadline < b.deadline }
            if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
            if a.slot != b.slot { return a.slot < b.slot }
            return a.message < b.message
        }
    }

    private(set) var items: [Timer] = []

    var first: Timer? { items.first }
    var isEmpty: Bool { items.isEmpty }

    // Both sift with a hole: the moving timer is written once, where it lands.

    mutating func push(_ t: Timer) {
        items.append(t)
        items.withUnsafeMutableBufferPointer { heap in
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard t < heap[parent] else { break }
                heap[i] = heap[parent]
                i = parent
            }
            heap[i] = t
        }
    }

    mutating func pop() -> Timer? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        siftDown(last)
        return top
    }

    /// Pops the first timer and pushes `t` in one sift: how a lost timer that found its pair
    /// seen again is set for the new deadline (one descent of the heap, where a pop and a
    /// push made a descent and a climb).
    mutating func replaceFirst(with t: Timer) {
        precondition(!items.isEmpty, "replaceFirst on an empty TimerQueue")
        siftDown(t)
    }

    /// Puts `t` at the root's place, which is vacant, and moves it down to where it belongs.
    private mutating func siftDown(_ t: Timer) {
        items.withUnsafeMutableBufferPointer { heap in
            let n = heap.count
            var i = 0
            while true {
                let l = 2 &* i &+ 1
                if l >= n { break }
                var m = l
                let r = l &+ 1
                if r < n, heap[r] < heap[l] { m = r }
                guard heap[m] < t else { break }
                heap[i] = heap[m]
                i = m
            }
            heap[i] = t
        }
    }
}
