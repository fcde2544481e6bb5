#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM as a file descriptor that becomes readable: a live session polls it
/// beside its source, so Ctrl-C ends the session cleanly (scanning disabled, the capture
/// being written closed) instead of killing the process. A second signal ends the process
/// at once, with status 128 + the signal.
public enum StopRequest {
    /// The pipe the handler writes to (read end, write end); -1 until `install()`.
    nonisolated(unsafe) private static var pipeEnds: (Int32, Int32) = (-1, -1)
    /// The signal that asked for the stop, 0 before one came.
    nonisolated(unsafe) public private(set) static var receivedSignal: Int32 = 0

    /// Routes SIGINT and SIGTERM to the stop pipe; returns its read end. Idempotent.
    @discardableResult
    public static func install() -> Int32 {
        if pipeEnds.0 >= 0 { return pipeEnds.0 }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        pipeEnds = (ends[0], ends[1])
        let handler: @convention(c) (Int32) -> Void = { received in
            // Only async-signal-safe calls here. A second signal ends the process at once
            // (a controller that hangs while scanning is disabled must not trap the user).
            if StopRequest.receivedSignal != 0 { _exit(128 + received) }
            StopRequest.receivedSignal = received
            var byte: UInt8 = 1
            _ = write(StopRequest.pipeEnds.1, &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return ends[0]
    }

    /// The read end of the stop pipe, or -1 when `install()` was not called.
    public static var fileDescriptor: Int32 { pipeEnds.0 }

    /// True once a stop was asked for.
    public static var requested: Bool { receivedSignal != 0 }
}
