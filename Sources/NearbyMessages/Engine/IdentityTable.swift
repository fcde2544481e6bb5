/// A hash table from `SightingIdentity` to `Value`, probed linearly: how the registry finds
/// the messages a sighting stands for, and the engine the reserved message of a beacon ID.
///
/// An identity is hashed by three 64×64→128-bit multiplications of its words, each mixed with a key
/// (the "mum" step of wyhash). The key is drawn from Swift's hash seed, random for each process
/// as a `Dictionary`'s is, and fixed as it is when `SWIFT_DETERMINISTIC_HASHING` is set. The
/// keys of the engine's reserved messages come from captures, so the hash must not be one that
/// a crafted capture can make collide: without the process's key, it cannot choose identities
/// that share a probe run. Nothing iterates a table, so its layout (which the key changes from
/// run to run) never reaches the output. At most half full; removal shifts the probe run back
/// (no tombstones).
struct IdentityTable<Value>: Sendable where Value: Sendable {
    private struct Slot: Sendable {
        var key: SightingIdentity
        var value: Value
    }

    private var slots: [Slot?]
    /// `slots.count − 1`; the capacity is a power of two.
    private var mask: Int
    private(set) var count = 0
    /// The hash key, the same for every table of the process (`IdentityTableKey`).
    private let seed = IdentityTableKey.words

    init() {
        slots = [Slot?](repeating: nil, count: 16)
        mask = 15
    }

    /// The value for `key`, or nil. With a default, a modifiable value that is inserted
    /// (as the default) when the key is absent.
    subscript(key: SightingIdentity) -> Value? {
        guard let i = find(key) else { return nil }
        return slots[i]!.value
    }

    subscript(key: SightingIdentity, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        _modify {
            let i = find(key) ?? insert(key, defaultValue())
            yield &slots[i]!.value
        }
    }

    /// Inserts `value` under `key`, which must be absent; returns its slot.
    @discardableResult
    mutating func insert(_ key: SightingIdentity, _ value: Value) -> Int {
        if 2 * (count + 1) > slots.count { grow() }
        var i = home(key)
        while slots[i] != nil { i = (i &+ 1) & mask }
        slots[i] = Slot(key: key, value: value)
        count += 1
        return i
    }

    /// Removes `key` if present.
    mutating func remove(_ key: SightingIdentity) {
        guard var hole = find(key) else { return }
        count -= 1
        // Backward shift (`ProbeRun`).
        var i = hole
        while true {
            i = (i &+ 1) & mask
            guard let slot = slots[i] else { break }
            if ProbeRun.fillsHole(hole, from: i, home: home(slot.key)) {
                slots[hole] = slot
                hole = i
            }
        }
        slots[hole] = nil
    }

    @inline(__always)
    private func find(_ key: SightingIdentity) -> Int? {
        var i = home(key)
        while let slot = slots[i] {
            if slot.key == key { return i }
            i = (i &+ 1) & mask
        }
        return nil
    }

    @inline(__always)
    private func home(_ key: SightingIdentity) -> Int {
        let a = Self.mum(key.w0 ^ seed.0, key.w1 ^ seed.1)
        let b = Self.mum(key.w2 ^ seed.2, (UInt64(key.kind.rawValue) << 8 | UInt64(key.count)) ^ seed.3)
        return Int(truncatingIfNeeded: Self.mum(a, b ^ seed.0)) & mask
    }

    /// The two halves of the 128-bit product, folded.
    @inline(__always)
    private static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot?](repeating: nil, count: 2 * old.count)
        mask = slots.count - 1
        count = 0
        for case let slot? in old { insert(slot.key, slot.value) }
    }
}

/// The key of every `IdentityTable` of the process: four words, each its index hashed with
/// Swift's per-process seed, worked out once.
private enum IdentityTableKey {
    static let words = (key(0), key(1), key(2), key(3))

    /// Word `i` of the key: `i` hashed with Swift's per-process seed.
    static func key(_ i: UInt64) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(i)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}
