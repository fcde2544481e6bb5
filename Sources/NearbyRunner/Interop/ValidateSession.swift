import NearbyJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `nearby-conformance validate` does (docs/interop.md): start the implementation, shake
/// hands, send each selected vector of a level it supports as one request, and judge each
/// reply with the comparisons `check` uses. A time-out, a crash, a malformed reply or a reply
/// for another vector is that vector's verdict; the implementation is then restarted (a
/// fresh handshake) for the next one. Vectors run one at a time, in id order.
public struct ValidateSession {
    /// What the implementation said about itself.
    public struct Implementation: Sendable, Equatable {
        public var name: String
        public var version: String
        public var levels: [InteropLevel]
        /// The beacon types and fields it reports, and whether it locates faults.
        public var coverage: InteropCoverage

        public init(name: String, version: String, levels: [InteropLevel], coverage: InteropCoverage = .everything) {
            self.name = name
            self.version = version
            self.levels = levels
            self.coverage = coverage
        }
    }

    public struct Outcome: Sendable {
        /// From the first successful handshake; nil if there was none.
        public var implementation: Implementation?
        public var results: [VectorResult]
        /// How many times the implementation was started.
        public var starts: Int
    }

    public var command: String
    /// Levels to run (nil: all the implementation supports).
    public var levels: Set<InteropLevel>?
    public var filter: String?
    public var shard: (k: Int, n: Int)?
    /// Seconds allowed for each reply (a capture or sound file may need more: `timeoutSeconds`
    /// applies to every request) and for the handshake.
    public var timeoutSeconds: Double
    public var handshakeSeconds: Double
    /// Consecutive failed starts after which the remaining vectors are not run.
    public var maximumFailedStarts = 3
    /// Consecutive time-outs after which the remaining vectors are not run (each costs the
    /// full time-out).
    public var maximumConsecutiveTimeouts = 3
    /// Leaves out the vectors that are skipped when their files are absent (the field
    /// captures outside the repository), so that a run gives the same verdicts everywhere.
    public var excludingOptionalVectors = false

    public init(command: String, levels: Set<InteropLevel>? = nil, filter: String? = nil, shard: (k: Int, n: Int)? = nil,
                timeoutSeconds: Double = 30, handshakeSeconds: Double = 10) {
        self.command = command
        self.levels = levels
        self.filter = filter
        self.shard = shard
        self.timeoutSeconds = timeoutSeconds
        self.handshakeSeconds = handshakeSeconds
    }

    /// Makes SIGINT and SIGTERM to this process end the implementation's process group
    /// too (then this process, with status 128 + the signal), so none is left running.
    public static func endImplementationOnSignals() {
        ImplementationProcess.endOnSignals()
    }

    /// Runs the selected vectors. The process must ignore SIGPIPE (`nearby-conformance` does
    /// for `validate` and `matrix`): an implementation that exits before reading a request
    /// would otherwise end this process with it.
    public func run(paths: [String], progress: ((Int, Int, String) -> Void)? = nil) -> Outcome {
        let set = VectorSet.load(paths).selecting(filter: filter, shard: shard)
        let vectors = set.vectors.filter { !(excludingOptionalVectors && $0.skipWhenFilesAbsent) }.sorted { ($0.id, $0.file) < ($1.id, $1.file) }
        var results: [VectorResult] = []
        var process: ImplementationProcess?
        var implementation: Implementation?
        var supported: Set<InteropLevel> = []
        var starts = 0, failedStarts = 0, timeouts = 0
        var unusable: String?

        for (n, v) in vectors.enumerated() {
            let started = ContinuousClock.now, before = results.count
            defer {
                for i in before..<results.count { results[i].seconds = (ContinuousClock.now - started).seconds }
                progress?(n + 1, vectors.count, v.id)
            }
            var r = VectorResult(id: v.id, kind: v.kind, file: v.file, status: .pass)
            let level = InteropLevel(vectorKind: v.kind)
            if let levels, !levels.contains(level) {
                continue
            }
            if let unusable {
                results.append(skip(r, .error, "not run: \(unusable)"))
                continue
            }
            let missing = v.referencedFiles.filter { access($0, R_OK) != 0 }
            if !missing.isEmpty {
                r.status = v.skipWhenFilesAbsent ? .skipped : .error
                r.message = (v.skipWhenFilesAbsent ? "skipped: absent: " : "missing file: ") + missing.joined(separator: ", ")
                results.append(r)
                continue
            }
            if implementation != nil && !supported.contains(level) {
                results.append(skip(r, .skipped, "level \(level) not supported by the implementation"))
                continue
            }
            // Start (or restart) and shake hands.
            if process == nil {
                starts += 1
                switch start() {
                case .success(let (p, info)):
                    process = p
                    failedStarts = 0
                    if implementation == nil {
                        implementation = info
                        supported = Set(info.levels)
                    }
                case .failure(let why):
                    failedStarts += 1
                    if failedStarts >= maximumFailedStarts { unusable = "the implementation failed to start \(failedStarts) times in a row (last: \(why.reason))" }
                    results.append(skip(r, .error, "could not start the implementation: \(why.reason)"))
                    continue
                }
                if !supported.contains(level) {
                    results.append(skip(r, .skipped, "level \(level) not supported by the implementation"))
                    continue
                }
            }
            guard let p = process else { continue }
            let request: JSONValue
            do {
                request = try InteropRequest.make(v)
            } catch {
                results.append(skip(r, .error, "the request cannot be built: \(error.reason)"))
                continue
            }
            let deadline = ImplementationProcess.now() + timeoutSeconds
            func timedOut() {
                timeouts += 1
                if timeouts >= maximumConsecutiveTimeouts {
                    unusable = "the implementation timed out on \(timeouts) vectors in a row"
                }
            }
            guard p.send(request.serialized, deadline: deadline) else {
                let exited = p.exitStatus()
                let how = exited.map { "crashed (\($0))" } ?? "timeout: the request was not read within \(timeoutSeconds) s"
                results.append(skip(r, .error, how + stderrSuffix(p)))
                if exited == nil { timedOut() } else { timeouts = 0 }
                p.terminate(grace: 0)
                process = nil
                continue
            }
            let reply = p.readLine(deadline: deadline)
            if reply != .timeout { timeouts = 0 }
            switch reply {
            case .timeout where p.outputClosedBehindShell():
                results.append(skip(r, .error, "crashed: the implementation closed its standard output before replying (its shell still runs)" + stderrSuffix(p)))
                timeouts = 0
                p.terminate(grace: 0)
                process = nil
            case .timeout:
                results.append(skip(r, .error, "timeout: no reply within \(timeoutSeconds) s" + stderrSuffix(p)))
                timedOut()
                p.terminate(grace: 0)
                process = nil
            case .endOfFile:
                let how = p.terminate(grace: 1)
                results.append(skip(r, .error, "crashed: the implementation ended (\(how)) before replying" + stderrSuffix(p)))
                process = nil
            case .tooLong:
                results.append(skip(r, .error, "malformed reply: a line longer than \(ImplementationProcess.maximumLine) bytes"))
                p.terminate(grace: 0)
                process = nil
            case .line(let line):
                let reply: JSONValue
                do {
                    reply = try JSONParser.parse(line)
                } catch {
                    results.append(skip(r, .error, "malformed reply: \(error) in \(Self.excerpt(line))"))
                    p.terminate(grace: 0)
                    process = nil
                    continue
                }
                guard case .object(let o) = reply else {
                    results.append(skip(r, .error, "malformed reply: not a JSON object: \(Self.excerpt(line))"))
                    p.terminate(grace: 0); process = nil
                    continue
                }
                guard case .string(let id)? = o["id"], id == v.id else {
                    let said = (o["id"] ?? .null).serialized
                    results.append(skip(r, .error, "wrong vector id: the reply is for \(said), not \"\(v.id)\""))
                    p.terminate(grace: 0); process = nil
                    continue
                }
                InteropReply.judge(v, reply: o, coverage: implementation?.coverage ?? .everything, &r)
                results.append(r)
            }
        }
        if let p = process { p.terminate(grace: 2) }
        for e in set.errors {
            results.append(VectorResult(id: e.id ?? "(file)", kind: "load", file: e.file, status: .error,
                                        message: e.location.isEmpty ? e.reason : "\(e.location): \(e.reason)"))
        }
        results.sort { ($0.id, $0.file) < ($1.id, $1.file) }
        return Outcome(implementation: implementation, results: results, starts: starts)
    }

    struct StartFailure: Error { var reason: String }

    /// Starts the implementation and reads its handshake.
    func start() -> Result<(ImplementationProcess, Implementation), StartFailure> {
        let p: ImplementationProcess
        do {
            p = try ImplementationProcess(command: command)
        } catch {
            return .failure(StartFailure(reason: error.description))
        }
        let hello: JSONValue = .object(["hello": .object(["protocol": .int(1), "levels": .array(InteropLevel.all.map { .string($0.rawValue) })])])
        let deadline = ImplementationProcess.now() + handshakeSeconds
        func fail(_ why: String) -> Result<(ImplementationProcess, Implementation), StartFailure> {
            let suffix = stderrSuffix(p)
            p.terminate(grace: 0)
            return .failure(StartFailure(reason: why + suffix))
        }
        guard p.send(hello.serialized, deadline: deadline) else { return fail("it did not read the handshake") }
        switch p.readLine(deadline: deadline) {
        case .timeout: return fail("no handshake within \(handshakeSeconds) s")
        case .endOfFile: return fail("it ended (\(p.terminate(grace: 1))) before the handshake")
        case .tooLong: return fail("a handshake line longer than the limit")
        case .line(let line):
            guard case .object(let o)? = try? JSONParser.parse(line), case .object(let h)? = o["hello"] else {
                return fail("the handshake is not {\"hello\": {…}}: \(Self.excerpt(line))")
            }
            guard h["protocol"]?.intValue == 1 else {
                return fail("protocol \((h["protocol"] ?? .null).serialized) is not supported (this runner speaks 1)")
            }
            var levels: [InteropLevel] = []
            if case .array(let list)? = h["levels"] {
                for case .string(let s) in list {
                    let l = InteropLevel(rawValue: s)
                    if InteropLevel.all.contains(l) { levels.append(l) }
                }
            }
            let coverage: InteropCoverage
            switch InteropCoverage.read(hello: h) {
            case .success(let c): coverage = c
            case .failure(let e): return fail("the handshake's \(e.reason)")
            }
            // An implementation names itself: an echo of the request (`cat`) is not one.
            guard case .string(let name)? = h["name"], !name.isEmpty, case .string(let version)? = h["version"], !version.isEmpty else {
                return fail("the handshake has no \"name\" and \"version\" (non-empty strings): \(Self.excerpt(line))")
            }
            return .success((p, Implementation(name: name, version: version, levels: levels.sorted(), coverage: coverage)))
        }
    }

    func skip(_ r: VectorResult, _ status: VectorResult.Status, _ message: String) -> VectorResult {
        var r = r
        r.status = status
        r.message = message
        return r
    }

    func stderrSuffix(_ p: ImplementationProcess) -> String {
        p.lastErrorLine.map { "; its last error line: \(Self.excerpt($0))" } ?? ""
    }

    static func excerpt(_ s: String) -> String {
        s.count > 120 ? "\"" + s.prefix(120) + "…\"" : "\"" + s + "\""
    }
}
