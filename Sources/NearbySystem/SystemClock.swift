#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's clocks, for what happens now rather than what a capture says: a live session's
/// time origin, a benchmark's and a supervisor's deadlines.
public enum SystemClock {
    /// The wall clock (`CLOCK_REALTIME`): microseconds since 1970-01-01T00:00:00Z.
    public static func unixMicros() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// A clock that only moves forward (`CLOCK_MONOTONIC`), in nanoseconds from an
    /// unspecified origin.
    public static func monotonicNanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// `monotonicNanos` in microseconds.
    public static func monotonicMicros() -> Int64 { monotonicNanos() / 1000 }

    /// `monotonicNanos` in seconds.
    public static func monotonicSeconds() -> Double { Double(monotonicNanos()) / 1e9 }

    /// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), in seconds.
    public static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
