import NearbyJSON
import NearbyRunner
import NearbySystem

/// One `ValidateSession` run: the implementation's process as a small state machine, and the
/// verdict of each vector sent to it.
///
/// The process is not started until a vector needs it; it keeps running while its replies can
/// be judged, and is ended (`notStarted` again) after any fault, so the next vector gets a
/// fresh start and handshake. It is `unusable`, and the remaining vectors are not sent, after
/// `maximumFailedStarts` failed starts or `maximumConsecutiveTimeouts` time-outs in a row, or
/// once the vectors that ended it have taken `faultBudget` seconds in all. From the run's
/// deadline on no vector is sent, and a reply still awaited is not waited for: those vectors
/// are `not run: deadline`. INTEROP-36, INTEROP-40, INTEROP-41, INTEROP-42.
struct ValidateRun {
    enum State {
        case notStarted
        case running(ChildProcess)
        case unusable(why: String)
    }

    let session: ValidateSession
    var state = State.notStarted
    /// From the first successful handshake.
    var implementation: ValidateSession.Implementation?
    /// How many times the implementation was started.
    var starts = 0
    var failedStarts = 0
    var timeouts = 0
    /// When the run ends (`ChildProcess.now()` seconds), or nil.
    let deadline: Double?
    /// Whether the deadline left a vector not run.
    var deadlinePassed = false
    /// The seconds taken by the vectors that ended the implementation, restarts included.
    var faultSeconds = 0.0
    /// Opaque request ids, copied inputs and the empty working directory; nil when the
    /// folders could not be made (then every vector errs with `blindFailure`).
    var blind: BlindInputs?
    var blindFailure = ""

    init(session: ValidateSession, deadline: Double?) {
        self.session = session
        self.deadline = deadline
        do {
            blind = try BlindInputs()
        } catch {
            blindFailure = error.description
        }
    }

    /// True when the run's deadline has passed.
    var pastDeadline: Bool { deadline.map { ChildProcess.now() >= $0 } ?? false }

    /// `seconds` from now, or the run's deadline when that comes first (then `cut`).
    func limit(_ seconds: Double) -> (at: Double, cut: Bool) {
        let own = ChildProcess.now() + seconds
        guard let deadline, deadline < own else { return (own, false) }
        return (deadline, true)
    }

    /// The verdict on `v`, or nil when its level was not selected.
    mutating func result(for v: Vector) -> VectorResult? {
        let level = InteropLevel(v.kind)
        if let levels = session.levels, !levels.contains(level) { return nil }
        let r = VectorResult(id: v.id, kind: v.kind.rawValue, file: v.file, status: .pass)
        if case .unusable(let why) = state { return Self.verdict(r, .notRun(why: why)) }
        if let missing = VectorResult.missingFiles(of: v) { return missing }
        if let implementation, !implementation.levels.contains(level) {
            return Self.verdict(r, .levelUnsupported(level))
        }
        if pastDeadline {
            deadlinePassed = true
            return Self.verdict(r, .deadlinePassed)
        }
        let taken = ChildProcess.now()
        let process: ChildProcess
        switch state {
        case .running(let p):
            process = p
        case .notStarted, .unusable:
            switch start() {
            case .success(let p): process = p
            case .failure(let fault): return charged(r, fault, since: taken)
            }
            if let implementation, !implementation.levels.contains(level) {
                return Self.verdict(r, .levelUnsupported(level))
            }
        }
        guard var blind else { return Self.verdict(r, .requestUnbuildable(reason: blindFailure)) }
        let id = blind.nextID()
        self.blind = blind
        defer { blind.clearInputs() }
        let request: JSONValue
        do {
            request = try InteropRequest.make(v, id: id, copy: blind.copy)
        } catch {
            return Self.verdict(r, .requestUnbuildable(reason: error.reason))
        }
        switch exchange(request, for: id, with: process) {
        case .success(let reply):
            var judged = r
            InteropReply.judge(v, reply: reply, coverage: implementation?.coverage ?? .everything, &judged)
            return judged
        case .failure(let fault):
            if case .running = state { state = .notStarted }
            return charged(r, fault, since: taken)
        }
    }

    /// The verdict of a fault that ended the implementation: the vector's seconds since it was
    /// `taken` up count towards `faultBudget` (the deadline's cut does not): INTEROP-41.
    mutating func charged(_ r: VectorResult, _ fault: InteropFault, since taken: Double) -> VectorResult {
        if fault == .deadlinePassed {
            deadlinePassed = true
        } else {
            faultSeconds += ChildProcess.now() - taken
            let budget = session.faultBudget
            if faultSeconds >= budget, case .notStarted = state {
                state = .unusable(
                    why: "time-outs, crashes and bad replies took the implementation's budget of \(budget) s")
            }
        }
        return Self.verdict(r, fault)
    }

    /// Ends the implementation, if it runs, giving it 2 s to exit after its input closes, and
    /// whatever its runs left behind (`OrphanReaper`): INTEROP-5, INTEROP-6.
    mutating func end() {
        if case .running(let p) = state { _ = p.terminate(grace: 2) }
        OrphanReaper.endAdopted()
        state = .notStarted
        blind?.remove()
    }

    /// Starts the implementation and shakes hands: `running` on success; on failure
    /// `notStarted`, or `unusable` after `maximumFailedStarts` in a row.
    mutating func start() -> Result<ChildProcess, InteropFault> {
        starts += 1
        let (until, cut) = limit(session.handshakeSeconds)
        let seconds = cut ? until - ChildProcess.now() : session.handshakeSeconds
        switch ChildProcess.handshake(
            command: session.command, seconds: seconds, directory: blind?.workingDirectory.path)
        {
        case .success(let (p, info)):
            failedStarts = 0
            if implementation == nil { implementation = info }
            state = .running(p)
            return .success(p)
        case .failure(let fault):
            state = .notStarted
            if cut && pastDeadline { return .failure(.deadlinePassed) }
            failedStarts += 1
            if failedStarts >= session.maximumFailedStarts {
                state = .unusable(
                    why: "the implementation failed to start \(failedStarts) times in a row (last: \(fault.reason))")
            }
            return .failure(.startFailed(fault))
        }
    }

    /// Sends one request and reads its reply, ending the process on any fault (and counting
    /// time-outs towards `unusable`).
    mutating func exchange(
        _ request: JSONValue, for id: String, with p: ChildProcess
    )
        -> Result<[String: JSONValue], InteropFault>
    {
        let seconds = session.timeoutSeconds
        let (deadline, cut) = limit(seconds)
        guard p.send(request.serialized, deadline: deadline) else {
            let exited = p.exitStatus()
            let atDeadline = cut && pastDeadline
            let fault: InteropFault =
                exited.map { .exitedBeforeRequest(status: $0, lastErrorLine: p.lastErrorLine) }
                ?? (atDeadline ? .deadlinePassed : .requestNotRead(seconds: seconds, lastErrorLine: p.lastErrorLine))
            if exited != nil {
                timeouts = 0
            } else if !atDeadline {
                countTimeout()
            }
            _ = p.terminate(grace: 0)
            return .failure(fault)
        }
        let reply = p.readLine(deadline: deadline)
        if reply != .timeout { timeouts = 0 }
        let fault: InteropFault
        switch reply {
        case .timeout where p.outputClosedBehindShell():
            fault = .outputClosed(lastErrorLine: p.lastErrorLine)
            timeouts = 0
        case .timeout where cut:
            fault = .deadlinePassed
        case .timeout:
            fault = .replyTimeout(seconds: seconds, lastErrorLine: p.lastErrorLine)
            countTimeout()
        case .endOfFile:
            let how = p.terminate(grace: 1)
            return .failure(.endedBeforeReply(how: how, lastErrorLine: p.lastErrorLine))
        case .tooLong:
            fault = .replyTooLong(limit: ChildProcess.maximumLine)
        case .line(let line):
            switch Self.replyObject(line, for: id) {
            case .success(let o): return .success(o)
            case .failure(let f): fault = f
            }
        }
        _ = p.terminate(grace: 0)
        return .failure(fault)
    }

    /// A time-out; `maximumConsecutiveTimeouts` in a row make the implementation unusable.
    mutating func countTimeout() {
        timeouts += 1
        if timeouts >= session.maximumConsecutiveTimeouts {
            state = .unusable(why: "the implementation timed out on \(timeouts) vectors in a row")
        }
    }

    /// A reply line as a JSON object answering vector `id`.
    static func replyObject(_ line: String, for id: String) -> Result<[String: JSONValue], InteropFault> {
        let reply: JSONValue
        do {
            reply = try JSONParser.parse(line)
        } catch {
            return .failure(.malformedReply(detail: "\(error) in \(InteropFault.excerpt(line))"))
        }
        guard case .object(let o) = reply else {
            return .failure(.malformedReply(detail: "not a JSON object: \(InteropFault.excerpt(line))"))
        }
        guard case .string(let said)? = o["id"], said == id else {
            return .failure(.wrongVectorID(said: (o["id"] ?? .null).serialized, expected: id))
        }
        return .success(o)
    }

    static func verdict(_ r: VectorResult, _ fault: InteropFault) -> VectorResult {
        var r = r
        r.status = fault.status
        r.message = fault.reason
        return r
    }
}
