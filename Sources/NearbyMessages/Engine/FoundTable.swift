/// The engine's found (subscription, message) pairs: a hash table from the pair's `FoundKey`
/// to its `Entry` (the evidence per source and the generation its lost timer carries), probed
/// linearly, with each subscription's found messages listed beside it (ENGINE-F3, ENGINE-F5 to
/// ENGINE-F7 act on one subscription's pairs).
///
/// A key is hashed by one multiplication (Fibonacci hashing: the pairs' keys are small
/// integers, not chosen by anyone to collide), an entry is updated in place, and removal
/// shifts the probe run back (no tombstones); the table stays at most half full of live
/// entries.
struct FoundTable: Sendable {
    /// A found pair's evidence: the latest counted sighting per source (ENGINE-F2, ENGINE-F3), and the
    /// generation that tells its lost timer from the timers of earlier found … lost runs.
    struct Entry: Sendable {
        var seen = SourceTimes()
        var generation: UInt32
        /// Where the pair's message stands in its subscription's list; kept by the table.
        fileprivate var listPosition: Int32 = 0

        init(generation: UInt32) { self.generation = generation }
    }

    /// One place of the table: a key (`empty` for none) and its entry.
    struct Slot: Sendable {
        var key: UInt64
        var entry: Entry
    }

    /// No key: packed pair keys have bit 63 clear (indices ≥ 0).
    fileprivate static let empty = UInt64.max

    private var slots: [Slot]
    /// `slots.count − 1`; the capacity is a power of two.
    private var mask: Int
    private(set) var count = 0
    /// The messages found by each subscription, indexed by subscription, in no particular
    /// order: the pair (s, lists[s][i]) has listPosition i.
    private var lists: [[Int32]] = []

    init() {
        slots = [Slot](repeating: Slot(key: Self.empty, entry: .init(generation: 0)), count: 16)
        mask = 15
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ key: UInt64) -> Int { Self.home(key, mask) }

    @inline(__always)
    fileprivate static func home(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The position of `key`, or nil.
    @inline(__always)
    private func find(_ key: UInt64) -> Int? {
        var i = home(key)
        while true {
            let k = slots[i].key
            if k == key { return i }
            if k == Self.empty { return nil }
            i = (i + 1) & mask
        }
    }

    subscript(key: FoundKey) -> Entry? {
        find(key.packed).map { slots[$0].entry }
    }

    /// The table's storage, taken once for a run of in-place updates of pairs already found
    /// (`withUpdates`).
    struct Updates {
        fileprivate let slots: UnsafeMutableBufferPointer<Slot>
        fileprivate let mask: Int

        /// Calls `body` on the entry of `pair` in place; false when the pair is not found.
        @inline(__always)
        func update(_ pair: FoundKey, _ body: (inout Entry) -> Void) -> Bool {
            let key = pair.packed
            var i = FoundTable.home(key, mask)
            while true {
                let k = slots[i].key
                if k == key {
                    body(&slots[i].entry)
                    return true
                }
                if k == FoundTable.empty { return false }
                i = (i &+ 1) & mask
            }
        }
    }

    /// Calls `body` with the table's storage for updates in place (no pair is added or
    /// removed during the call).
    @inline(__always)
    mutating func withUpdates<R>(_ body: (Updates) -> R) -> R {
        let mask = self.mask
        return slots.withUnsafeMutableBufferPointer { body(Updates(slots: $0, mask: mask)) }
    }

    /// Sets the entry of `pair` (inserting the pair if it is new).
    mutating func set(_ pair: FoundKey, _ entry: Entry) {
        let key = pair.packed
        precondition(key != Self.empty, "FoundTable keys have non-negative indices")
        if let i = find(key) {
            let position = slots[i].entry.listPosition
            slots[i].entry = entry
            slots[i].entry.listPosition = position
            return
        }
        if 2 * (count + 1) > slots.count { grow() }
        let s = Int(pair.subscription)
        if s >= lists.count { lists.append(contentsOf: repeatElement([], count: s + 1 - lists.count)) }
        var listed = entry
        listed.listPosition = Int32(lists[s].count)
        lists[s].append(pair.message)
        insertNew(key, listed)
    }

    /// The messages subscription `subscription` has found, in no particular order.
    func messages(of subscription: Int32) -> [Int32] {
        Int(subscription) < lists.count ? lists[Int(subscription)] : []
    }

    /// Removes every pair of `subscription`; returns their messages, in no particular order.
    mutating func removeAll(of subscription: Int32) -> [Int32] {
        guard Int(subscription) < lists.count else { return [] }
        let messages = lists[Int(subscription)]
        lists[Int(subscription)] = []
        for m in messages { removeSlot(at: find(FoundKey(subscription: subscription, message: m).packed)!) }
        return messages
    }

    /// Puts a key not in the table at the first free place of its probe run.
    private mutating func insertNew(_ key: UInt64, _ entry: Entry) {
        var i = home(key)
        while slots[i].key != Self.empty { i = (i + 1) & mask }
        slots[i] = Slot(key: key, entry: entry)
        count += 1
    }

    /// Removes `pair` if present.
    mutating func remove(_ pair: FoundKey) {
        guard let i = find(pair.packed) else { return }
        let s = Int(pair.subscription)
        let position = Int(slots[i].entry.listPosition)
        if let moved = lists[s].swapRemove(at: position),
            let j = find(FoundKey(subscription: pair.subscription, message: moved).packed)
        {
            slots[j].entry.listPosition = Int32(position)
        }
        removeSlot(at: i)
    }

    /// Empties `place` of the table (its subscription's list is the caller's).
    private mutating func removeSlot(at place: Int) {
        var hole = place
        count -= 1
        // Backward shift (`ProbeRun`).
        var i = hole
        while true {
            i = (i + 1) & mask
            let k = slots[i].key
            if k == Self.empty { break }
            if ProbeRun.fillsHole(hole, from: i, home: home(k)) {
                slots[hole] = slots[i]
                hole = i
            }
        }
        slots[hole].key = Self.empty
    }

    /// The pairs present, in no particular order.
    var allKeys: [FoundKey] { slots.compactMap { $0.key == Self.empty ? nil : FoundKey(packed: $0.key) } }

    private mutating func grow() {
        let old = slots
        let size = slots.count * 2
        slots = [Slot](repeating: Slot(key: Self.empty, entry: .init(generation: 0)), count: size)
        mask = size - 1
        count = 0
        for slot in old where slot.key != Self.empty { insertNew(slot.key, slot.entry) }
    }
}
