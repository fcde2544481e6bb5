/// The duty cycle of the low-power beacon scan (ENGINE-A6): the scanner listens for
/// `windowMicros` at the start of every `intervalMicros`, from the moment the subscription is
/// made. The default, 512 ms every 5,120 ms (a 10 % duty cycle), is Android's
/// `SCAN_MODE_LOW_POWER` of Android 7 to 12 (AOSP `ScanManager`); iOS documents none of its
/// own. A scenario can set both (`lowPowerScan`).
public struct LowPowerScan: Hashable, Sendable {
    /// How long each scan window lasts, µs; 1 µs … `intervalMicros`.
    public var windowMicros: Int64
    /// How often a window starts, µs; 1 µs … 86,400 s.
    public var intervalMicros: Int64

    public init(windowMicros: Int64 = 512_000, intervalMicros: Int64 = 5_120_000) {
        self.windowMicros = windowMicros
        self.intervalMicros = intervalMicros
    }

    /// Whether time `t` falls in a scan window of a scan started at `start` (µs, `t ≥ start`).
    @inline(__always)
    public func listens(at t: Int64, since start: Int64) -> Bool {
        (t - start) % intervalMicros < windowMicros
    }
}
