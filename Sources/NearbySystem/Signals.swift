#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Signal dispositions and masks.
public enum Signals {
    /// SIGINT, SIGTERM, SIGPIPE, SIGKILL, SIGCHLD: the numbers of this platform.
    public static let interrupt = SIGINT
    public static let terminate = SIGTERM
    public static let brokenPipe = SIGPIPE
    public static let kill = SIGKILL
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

    /// Ignores signal `number` in the whole process (`SIG_IGN`).
    public static func ignore(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// Restores the default action of signal `number` in the whole process.
    public static func setDefault(_ number: Int32) {
        _ = signal(number, SIG_DFL)
    }
}
