/// A (subscription, message) pair of the engine: the subscription's index in the engine's
/// subscriptions and the message's in its messages (both ≥ 0). Found state, lost timers and the
/// order of a state change's losses are kept per pair (ENGINE-F1 to ENGINE-F3, ENGINE-F8).
struct FoundKey: Hashable, Comparable, Sendable, BitwiseCopyable {
    let subscription: Int32
    let message: Int32

    @inline(__always) init(subscription: Int32, message: Int32) {
        self.subscription = subscription
        self.message = message
    }

    /// Both indices in one word, subscription high: how `FoundTable` stores and hashes a pair.
    @inline(__always) var packed: UInt64 {
        UInt64(UInt32(bitPattern: subscription)) << 32 | UInt64(UInt32(bitPattern: message))
    }

    @inline(__always) init(packed: UInt64) {
        subscription = Int32(truncatingIfNeeded: packed >> 32)
        message = Int32(truncatingIfNeeded: packed & 0xFFFF_FFFF)
    }

    static func < (a: FoundKey, b: FoundKey) -> Bool { a.packed < b.packed }
}
