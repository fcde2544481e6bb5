#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for a descriptor to become readable, or for a stop request.
enum Poll {
    enum Outcome {
        case readable
        case timeout
        case stopRequested
        case failed(Int32)
    }

    /// Waits at most `timeoutMillis` for `fd`; when `stoppable`, a stop request (the stop
    /// pipe, when installed) ends the wait.
    static func wait(_ fd: Int32, timeoutMillis: Int32, stoppable: Bool) -> Outcome {
        if stoppable && StopRequest.requested { return .stopRequested }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        let stop = StopRequest.fileDescriptor
        if stoppable && stop >= 0 { fds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
        while true {
            let n = poll(&fds, nfds_t(fds.count), timeoutMillis)
            if n < 0 {
                if errno == EINTR {
                    if stoppable && StopRequest.requested { return .stopRequested }
                    continue
                }
                return .failed(errno)
            }
            if n == 0 { return .timeout }
            if fds.count > 1 && fds[1].revents != 0 { return .stopRequested }
            return .readable
        }
    }

    /// Waits as `wait` does, for a transport's `receive`: nil when `fd` became readable,
    /// else what to return instead (`timeout`, `stopRequested`); throws when polling failed.
    static func waitForPacket(
        _ fd: Int32, timeoutMillis: Int32, stoppable: Bool, source: String
    ) throws(LiveError) -> LiveReceive? {
        switch wait(fd, timeoutMillis: timeoutMillis, stoppable: stoppable) {
        case .readable: return nil
        case .timeout: return .timeout
        case .stopRequested: return .stopRequested
        case .failed(let code):
            throw LiveError(source: source, .io, "waiting for the controller failed: \(errorText(code))")
        }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
