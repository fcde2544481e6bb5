#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting for descriptors to become readable or writable (`poll(2)`).
public enum Readiness {
    /// What a wait ended with.
    public enum Outcome: Sendable, Equatable {
        /// The descriptors at these positions of the list are ready (or hung up, or failed:
        /// a read or write says which).
        case ready([Int])
        /// The time-out passed with no descriptor ready.
        case timeout
        /// A signal arrived first: the caller decides whether to wait again.
        case interrupted
        /// `poll(2)` failed with this error number (never EINTR, which is `interrupted`).
        case failed(Errno)
    }

    /// Waits up to `timeoutMillis` (−1: without limit) for one of `readable` to have bytes
    /// to read, or, when `writable` is true, for `readable[0]` to take bytes instead.
    public static func wait(_ descriptors: [FileDescriptor], writable: Bool = false, timeoutMillis: Int32) -> Outcome {
        let events = Int16(writable ? POLLOUT : POLLIN)
        var fds = descriptors.map { pollfd(fd: $0.rawValue, events: events, revents: 0) }
        let n = poll(&fds, nfds_t(fds.count), timeoutMillis)
        if n < 0 {
            let e = Errno(rawValue: errno)
            return e == .interrupted ? .interrupted : .failed(e)
        }
        if n == 0 { return .timeout }
        return .ready(fds.indices.filter { fds[$0].revents != 0 })
    }
}
