#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM as a request to stop cleanly: the first such signal is
/// recorded and makes a pipe readable, so that a wait on a descriptor (`Readiness`) ends; a
/// second one ends the process at once with status 128 + the signal's number.
public enum TerminationSignals {
    nonisolated(unsafe) private static var pipeEnds: (Int32, Int32) = (-1, -1)
    /// The first signal received (0: none yet).
    nonisolated(unsafe) public private(set) static var received: Int32 = 0

    /// Installs the handlers (once; later calls do nothing) and unblocks both signals on
    /// this thread; returns the pipe's read end, or nil when no pipe could be made.
    @discardableResult
    public static func install() -> FileDescriptor? {
        if pipeEnds.0 >= 0 { return FileDescriptor(rawValue: pipeEnds.0) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        pipeEnds = (ends[0], ends[1])
        let handler: @convention(c) (Int32) -> Void = { signal in
            // Only async-signal-safe calls here.
            if TerminationSignals.received != 0 { _exit(128 + signal) }
            TerminationSignals.received = signal
            var byte: UInt8 = 1
            _ = write(TerminationSignals.pipeEnds.1, &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        Signals.unblock([SIGINT, SIGTERM])
        return FileDescriptor(rawValue: ends[0])
    }

    /// The pipe's read end once installed.
    public static var descriptor: FileDescriptor? { pipeEnds.0 >= 0 ? FileDescriptor(rawValue: pipeEnds.0) : nil }

    /// Whether a stop was asked for.
    public static var requested: Bool { received != 0 }
}
