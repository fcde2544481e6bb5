#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time stamped on live records: the host's wall clock read once, when the clock is
/// made, then advanced by the monotonic clock, so that record times never step backwards
/// (an NTP step during a session moves neither the order nor the gaps of the records).
/// Microseconds since the Unix epoch.
public struct HostClock: Sendable {
    private let originUnixMicros: Int64
    private let originMonotonicMicros: Int64

    public init() {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        originUnixMicros = Int64(wall.tv_sec) * 1_000_000 + Int64(wall.tv_nsec) / 1000
        originMonotonicMicros = Self.monotonicMicros()
    }

    /// Now, microseconds since the Unix epoch; never less than an earlier reading.
    public func nowMicros() -> Int64 {
        originUnixMicros + (Self.monotonicMicros() - originMonotonicMicros)
    }

    static func monotonicMicros() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
