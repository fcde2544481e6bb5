import NearbySystem

/// The time stamped on live records: the host's wall clock read once, when the clock is
/// made, then advanced by the monotonic clock, so that record times never step backwards
/// (an NTP step during a session moves neither the order nor the gaps of the records).
/// Microseconds since the Unix epoch.
public struct HostClock: Sendable {
    private let originUnixMicros: Int64
    private let originMonotonicMicros: Int64

    public init() {
        originUnixMicros = SystemClock.unixMicros()
        originMonotonicMicros = Self.monotonicMicros()
    }

    /// Now, microseconds since the Unix epoch; never less than an earlier reading.
    public func nowMicros() -> Int64 {
        originUnixMicros + (Self.monotonicMicros() - originMonotonicMicros)
    }

    static func monotonicMicros() -> Int64 {
        SystemClock.monotonicMicros()
    }
}
