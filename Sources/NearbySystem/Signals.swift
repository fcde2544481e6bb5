#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Signal dispositions and masks.
public enum Signals {
    /// SIGINT's number on this platform: an interrupt from the terminal (Ctrl-C).
    public static let interrupt = SIGINT
    /// SIGTERM's number on this platform: a request to end.
    public static let terminate = SIGTERM
    /// SIGPIPE's number on this platform: raised by a write to a pipe or socket that has no
    /// reader.
    public static let brokenPipe = SIGPIPE
    /// SIGKILL's number on this platform: ends a process at once, and cannot be caught,
    /// blocked or ignored.
    public static let kill = SIGKILL
    /// SIGCHLD's number on this platform: a child process exited, stopped or continued.
    public static let childStopped = SIGCHLD

    /// Unblocks `signals` on the calling thread (`pthread_sigmask`).
    public static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Blocks `signals` on the calling thread; returns the mask before, for `restore`.
    public static func block(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &old)
        return old
    }

    /// Sets the calling thread's mask back to `mask`.
    public static func restore(_ mask: sigset_t) {
        var mask = mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// Runs `body` (writes to pipes) with SIGPIPE blocked on the calling thread, and consumes
    /// a SIGPIPE that `body` raised: a write to a pipe whose reader has gone fails with EPIPE
    /// and the process lives on, whatever SIGPIPE's disposition, without changing it for the
    /// whole process (a library must not).
    public static func withoutBrokenPipeSignal<R>(_ body: () -> R) -> R {
        var pipeSet = sigset_t()
        sigemptyset(&pipeSet)
        sigaddset(&pipeSet, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        let pendingBefore = sigismember(&pending, SIGPIPE) == 1
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSet, &old)
        let result = body()
        sigpending(&pending)
        if !pendingBefore && sigismember(&pending, SIGPIPE) == 1 {
            #if os(Linux)
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSet, nil, &now) < 0 && errno == EINTR {}
            #else
            var received: Int32 = 0
            sigwait(&pipeSet, &received)  // pending: returns at once
            #endif
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        return result
    }

    /// Ignores signal `number` in the whole process (`SIG_IGN`).
    public static func ignore(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// Restores the default action of signal `number` in the whole process.
    public static func setDefault(_ number: Int32) {
        _ = signal(number, SIG_DFL)
    }
}
