/// A binary min-heap of engine timers ordered by (deadline, kind, slot, message), a total
/// order, so timers due at the same instant pop in a reproducible order.
struct TimerQueue: Sendable {
    enum Kind: UInt8, Sendable { case lost = 0, subscriptionExpiry = 1, publicationExpiry = 2 }

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

    mutating func push(_ t: Timer) {
        items.append(t)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Timer? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count, items[l] < items[m] { m = l }
                if r < items.count, items[r] < items[m] { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
