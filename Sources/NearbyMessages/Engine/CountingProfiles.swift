/// The subscriptions' counting profiles: what the rules of counting and of the error handlers
/// read from a subscription's parameters (ENGINE-A1 to ENGINE-A6, ENGINE-H2, ENGINE-H4), which is
/// its parameters without the filter, the TTL and the dialog choice. Subscriptions with one
/// profile count the same sources in every state, so a state change is decided once per
/// profile (ENGINE-F3), and the handlers ask only whether a profile has a live subscription.
///
/// A profile is made the first time a subscription has it and kept; there are at most a few
/// hundred (the parameters it keeps are a handful of flags).
struct CountingProfiles: Sendable {
    /// What a profile's subscriptions count in the current state.
    struct Counting: Sendable, BitwiseCopyable {
        /// The sources they count (ENGINE-A1 to ENGINE-A5).
        var sources: EvidenceSources = []
        /// Their beacon sightings count only inside the low-power scan's windows (ENGINE-A6).
        var lowPowerBeacons = false

        /// Whether a sighting from `source` at `t` counts for a subscription of this profile
        /// made at `since` (ENGINE-A1 to ENGINE-A6; ENGINE-A6: a beacon sighting inside the
        /// low-power scan's `windows` when duty-cycled).
        @inline(__always)
        func counts(_ source: EvidenceSource, at t: Int64, since: Int64, windows: LowPowerScan) -> Bool {
            sources.contains(source) && (source != .beacon || !lowPowerBeacons || windows.listens(at: t, since: since))
        }
    }

    /// Each profile's parameters: a subscription's, with namespace, type, TTL and dialog choice
    /// at their defaults.
    private(set) var params: [SubscriptionParams] = []
    private var index: [SubscriptionParams: Int32] = [:]
    /// Each profile's counting in the current state, set by the engine.
    var counting: [Counting] = []
    /// Each profile's live subscriptions (engine slots), in no particular order.
    private(set) var members: [[Int32]] = []

    var indices: Range<Int> { params.indices }

    /// The profile of subscription parameters `p`, made when new.
    mutating func profile(of p: SubscriptionParams) -> Int32 {
        var key = p
        key.messageNamespace = ""
        key.type = ""
        key.strategy.ttl = .infinite
        key.permissionRequestHandler = false
        if let i = index[key] { return i }
        let i = Int32(params.count)
        params.append(key)
        index[key] = i
        counting.append(Counting())
        members.append([])
        return i
    }

    /// Adds live subscription `slot` to `profile`; returns its position in the members.
    mutating func add(_ slot: Int32, to profile: Int32) -> Int32 {
        members[Int(profile)].append(slot)
        return Int32(members[Int(profile)].count - 1)
    }

    /// Removes the member at `position` of `profile`; returns the slot moved into that
    /// position, whose recorded position the caller updates, or nil.
    mutating func remove(at position: Int32, of profile: Int32) -> Int32? {
        members[Int(profile)].swapRemove(at: Int(position))
    }
}
