import NearbySystem

/// SIGINT and SIGTERM as a file descriptor that becomes readable: a live session polls it
/// beside its source, so Ctrl-C ends the session cleanly (scanning disabled, the capture
/// being written closed) instead of killing the process. A second signal ends the process
/// at once, with status 128 + the signal (a controller that hangs while scanning is
/// disabled must not trap the user). The signals themselves are `TerminationSignals`'.
public enum StopRequest {
    /// The signal that asked for the stop, 0 before one came.
    public static var receivedSignal: Int32 { TerminationSignals.received }

    /// Routes SIGINT and SIGTERM to the stop pipe; returns its read end (−1 when no pipe
    /// could be made). Idempotent.
    @discardableResult
    public static func install() -> Int32 {
        TerminationSignals.install()?.rawValue ?? -1
    }

    /// The read end of the stop pipe, or -1 when `install()` was not called.
    public static var fileDescriptor: Int32 { TerminationSignals.descriptor?.rawValue ?? -1 }

    /// True once a stop was asked for.
    public static var requested: Bool { TerminationSignals.requested }
}
