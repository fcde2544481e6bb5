import NearbySystem

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
        var fds = [FileDescriptor(rawValue: fd)]
        let stop = StopRequest.fileDescriptor
        if stoppable && stop >= 0 { fds.append(FileDescriptor(rawValue: stop)) }
        while true {
            switch Readiness.wait(fds, timeoutMillis: timeoutMillis) {
            case .interrupted:
                if stoppable && StopRequest.requested { return .stopRequested }
            case .failed(let e): return .failed(e.rawValue)
            case .timeout: return .timeout
            case .ready(let which): return which.contains(1) ? .stopRequested : .readable
            }
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

    static func errorText(_ code: Int32) -> String { Errno(rawValue: code).description }
}
