#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An implementation under test, run as `/bin/sh -c COMMAND` in its own process group and in
/// a working directory of the caller's choosing (`validate`: an empty one), with
/// its standard input, output and error on pipes, and ended together with the processes it
/// leaves behind (INTEROP-1, INTEROP-6). Every read and write has a deadline, so a hung or dead
/// implementation costs at most its time-out; standard error is drained continuously (so a
/// chatty implementation never blocks on it) and its last 4 KiB kept for verdicts.
public final class ChildProcess {
    /// What `readLine(deadline:)` returns.
    public enum ReadResult: Equatable, Sendable {
        /// A line of standard output, without its newline.
        case line(String)
        /// The deadline passed before a whole line arrived; the bytes read so far are kept
        /// for the next read.
        case timeout
        /// Standard output closed (the process exited or closed it).
        case endOfFile
        /// A line longer than the limit.
        case tooLong
    }

    /// The command the implementation was started with, as `/bin/sh -c` runs it.
    public let command: String
    /// The process id of the `/bin/sh` that runs `command`, also the id of its process group.
    public private(set) var pid: pid_t = 0
    var input: Int32 = -1
    var output: Int32 = -1
    var errors: Int32 = -1
    /// Bytes read and not yet returned: `buffer[consumed..<filled]`, of which the first
    /// `scanned` past `consumed` hold no newline (so each byte is searched once). Raw
    /// memory, `read(2)` into it and `memchr` over it: linear, and fast in debug builds.
    var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    var consumed = 0
    var filled = 0
    var scanned = 0
    var errorTail: [UInt8] = []
    /// The process's wait status (`waitpid(2)`) once it has been waited for, nil before;
    /// `describe(_:)` puts it into words.
    public internal(set) var exited: Int32?
    /// The longest reply line read (64 MiB); a longer one is a malformed reply (INTEROP-33).
    public static let maximumLine = 64 << 20
    static let errorTailBytes = 4096

    /// Why the implementation could not be started: its pipes, its working directory or
    /// `/bin/sh`.
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `command` under `/bin/sh -c` in a process group of its own, in `directory` (nil:
    /// this process's working directory), with its standard streams on pipes. Throws
    /// `SpawnError` when the pipes cannot be made or the shell cannot be started there.
    public init(command: String, directory: String? = nil) throws(SpawnError) {
        self.command = command
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1], errChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errChild) == 0 else {
            throw SpawnError(description: "cannot create pipes: \(Errno(rawValue: errno))")
        }
        let plan = SpawnPlan()
        plan.duplicate(toChild[0], as: 0)
        plan.duplicate(fromChild[1], as: 1)
        plan.duplicate(errChild[1], as: 2)
        for fd in toChild + fromChild + errChild { plan.close(fd) }
        if let directory, !plan.changeDirectory(to: directory) {
            for fd in toChild + fromChild + errChild { close(fd) }
            throw SpawnError(description: "cannot start the implementation in \(directory)")
        }
        plan.ownProcessGroup()
        pthread_mutex_lock(Self.starting)
        let started = plan.spawn(["/bin/sh", "-c", command], executable: "/bin/sh")
        if case .success(let child) = started { ChildProcess.running = child }
        pthread_mutex_unlock(Self.starting)
        close(toChild[0])
        close(fromChild[1])
        close(errChild[1])
        guard case .success(let child) = started else {
            close(toChild[1])
            close(fromChild[0])
            close(errChild[0])
            if case .failure(let e) = started { throw SpawnError(description: "cannot start /bin/sh: \(e)") }
            throw SpawnError(description: "cannot start /bin/sh")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        errors = errChild[0]
        for fd in [input, output, errors] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        _ = terminate()
        buffer.deallocate()
    }

    /// The process group of the implementation running now (0 when none): what
    /// `endOnSignals` kills. Written by the thread that runs the session: under `starting`
    /// when it starts one, and when it ends it.
    nonisolated(unsafe) static var running: pid_t = 0

    /// Seconds on the monotonic clock (`CLOCK_MONOTONIC`), the time base of every deadline.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The milliseconds from now to `deadline` (a `now()` value), rounded up, as a `poll(2)`
    /// time-out: 0 once the deadline has passed, at most `Int32.max`.
    public static func milliseconds(until deadline: Double) -> Int32 {
        Int32(max(0, min(Double(Int32.max), ((deadline - now()) * 1000).rounded(.up))))
    }

    /// Writes `line` and a newline. False when the deadline passed or the pipe closed.
    public func send(_ line: String, deadline: Double) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var sent = 0
        while sent < bytes.count {
            let n = Signals.withoutBrokenPipeSignal {
                bytes[sent...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            }
            if n > 0 {
                sent += n
                continue
            }
            if n < 0 && errno != EAGAIN && errno != EINTR { return false }
            var fds = [
                pollfd(fd: input, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
            ]
            let wait = Self.milliseconds(until: deadline)
            if wait == 0 { return false }
            _ = poll(&fds, 2, wait)
            if fds[1].revents != 0 { drainErrors() }
            if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 { return false }
        }
        return true
    }

    /// The next line of standard output (without its newline): in time linear in the bytes
    /// read, `.timeout` once the deadline passes even while bytes keep coming, `.tooLong`
    /// past `maximumLine` bytes without a newline.
    public func readLine(deadline: Double) -> ReadResult {
        while true {
            let start = consumed + scanned
            if filled > start, let hit = memchr(buffer.baseAddress! + start, 0x0A, filled - start) {
                let nl = buffer.baseAddress!.distance(to: hit)
                let line = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[consumed..<nl]), as: UTF8.self)
                consumed = nl + 1
                scanned = 0
                if consumed == filled {
                    consumed = 0
                    filled = 0
                }
                return .line(line)
            }
            scanned = filled - consumed
            if scanned > Self.maximumLine { return .tooLong }
            if Self.now() >= deadline { return .timeout }
            var fds = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Self.milliseconds(until: deadline))
            if ready <= 0 { continue }
            if fds[1].revents != 0 { drainErrors() }
            if fds[0].revents != 0 {
                let n = readChunk()
                if n > 0 { continue }
                if n == 0 { return .endOfFile }
                if errno != EAGAIN && errno != EINTR { return .endOfFile }
            }
        }
    }

    /// Reads what standard output holds (up to the buffer's free space, at least 64 KiB) into
    /// the buffer; returns what `read(2)` did.
    func readChunk() -> Int {
        let chunk = 1 << 16
        if buffer.count - filled < chunk {
            if consumed > 0 {
                // Move the unreturned bytes to the front before growing.
                (buffer.baseAddress!).copyMemory(from: buffer.baseAddress! + consumed, byteCount: filled - consumed)
                filled -= consumed
                consumed = 0
            }
            if buffer.count - filled < chunk {
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * buffer.count, alignment: 16)
                bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
                buffer.deallocate()
                buffer = bigger
            }
        }
        let n = read(output, buffer.baseAddress! + filled, buffer.count - filled)
        if n > 0 { filled += n }
        return n
    }

    func drainErrors() {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            errorTail += chunk[0..<n]
            if errorTail.count > Self.errorTailBytes { errorTail.removeFirst(errorTail.count - Self.errorTailBytes) }
        }
    }

    /// The last line the implementation wrote to standard error, if any.
    public var lastErrorLine: String? {
        drainErrors()
        let text = String(decoding: errorTail, as: UTF8.self)
        return text.split(separator: "\n").last.map(String.init)
    }

    /// Closes its input, gives it `grace` seconds to exit, then kills its process group and
    /// ends what it left behind outside the group (`OrphanReaper.endAdopted`). Returns how it
    /// ended ("exit status 0", "killed by signal 9").
    @discardableResult
    public func terminate(grace: Double = 1) -> String {
        if input >= 0 {
            close(input)
            input = -1
        }
        if exited == nil && pid > 0 {
            let deadline = Self.now() + grace
            var status: Int32 = 0
            while true {
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid {
                    exited = status
                    kill(-pid, SIGKILL)
                    break
                }
                if r < 0 {
                    exited = 0
                    break
                }
                if Self.now() >= deadline {
                    kill(-pid, SIGKILL)
                    kill(pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    exited = status
                    break
                }
                usleep(5_000)
            }
        }
        if ChildProcess.running == pid { ChildProcess.running = 0 }
        OrphanReaper.endAdopted(sparing: ChildProcess.running)
        if output >= 0 {
            drainErrors()
            close(output)
            output = -1
        }
        if errors >= 0 {
            close(errors)
            errors = -1
        }
        return Self.describe(exited ?? 0)
    }

    /// A wait status (`waitpid(2)`) in words: "exit status N" or "killed by signal N".
    public static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exit status \((status >> 8) & 0xFF)" }
        return "killed by signal \(signal)"
    }

    /// The environment the process was started with, passed on to the child.
    static var environment: UnsafePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        UnsafePointer(_NSGetEnviron().pointee)
        #else
        UnsafePointer(environ)
        #endif
    }
}
