#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The running process: its id, its calling thread, and ending it.
public enum CurrentProcess {
    /// The process id (`getpid`).
    public static var id: Int32 { getpid() }

    /// A number for the calling thread, distinct among the live threads of the process.
    public static var threadNumber: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Ends the process with `status`, running `atexit` handlers and flushing C streams.
    public static func exit(_ status: Int32) -> Never { systemExit(status) }

    /// Ends the process abnormally (SIGABRT), for a fuzzer to record the input.
    public static func abort() -> Never { systemAbort() }

    /// Runs `handler` when the process exits normally (`atexit(3)`).
    public static func atExit(_ handler: @escaping @convention(c) () -> Void) { atexit(handler) }
}

/// `exit(3)` and `abort(3)` (the C functions, which `CurrentProcess`'s own hide).
private func systemExit(_ status: Int32) -> Never { exit(status) }

private func systemAbort() -> Never { abort() }
