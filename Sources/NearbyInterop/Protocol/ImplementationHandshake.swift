import NearbyJSON
import NearbySystem

extension ChildProcess {
    /// Starts `command` and reads its handshake (INTEROP-7), allowing `seconds` for
    /// it: the running process and what it said about itself, or why it cannot be used (the
    /// process then ended).
    static func handshake(
        command: String, seconds: Double, directory: String? = nil
    )
        -> Result<(ChildProcess, ValidateSession.Implementation), HandshakeFault>
    {
        let p: ChildProcess
        do {
            p = try ChildProcess(command: command, directory: directory)
        } catch {
            return .failure(.cannotStart(reason: error.description))
        }
        let levels = JSONValue.array(InteropLevel.all.map { .string($0.rawValue) })
        let hello: JSONValue = .object(["hello": .object(["protocol": .int(1), "levels": levels])])
        let deadline = now() + seconds
        func fail(
            _ fault: (String?) -> HandshakeFault
        ) -> Result<(ChildProcess, ValidateSession.Implementation), HandshakeFault> {
            let made = fault(p.lastErrorLine)
            _ = p.terminate(grace: 0)
            return .failure(made)
        }
        guard p.send(hello.serialized, deadline: deadline) else { return fail { .requestNotRead(lastErrorLine: $0) } }
        switch p.readLine(deadline: deadline) {
        case .timeout: return fail { .noHandshake(seconds: seconds, lastErrorLine: $0) }
        case .endOfFile:
            let how = p.terminate(grace: 1)
            return fail { .ended(how: how, lastErrorLine: $0) }
        case .tooLong: return fail { .tooLong(lastErrorLine: $0) }
        case .line(let line):
            let excerpt = InteropFault.excerpt(line)
            guard case .object(let o)? = try? JSONParser.parse(line), case .object(let h)? = o["hello"] else {
                return fail { .notAHello(line: excerpt, lastErrorLine: $0) }
            }
            guard h["protocol"]?.intValue == 1 else {  // INTEROP-11
                let version = (h["protocol"] ?? .null).serialized
                return fail { .protocolUnsupported(version: version, lastErrorLine: $0) }
            }
            var levels: [InteropLevel] = []
            if case .array(let list)? = h["levels"] {
                for case .string(let s) in list {
                    let l = InteropLevel(rawValue: s)
                    if InteropLevel.all.contains(l) { levels.append(l) }  // INTEROP-10
                }
            }
            let coverage: InteropCoverage
            switch InteropCoverage.read(hello: h) {
            case .success(let c): coverage = c
            case .failure(let e): return fail { .badCoverage(reason: e.reason, lastErrorLine: $0) }  // INTEROP-17
            }
            // An implementation names itself: an echo of the request (`cat`) is not one (INTEROP-8).
            guard case .string(let name)? = h["name"], !name.isEmpty, case .string(let version)? = h["version"],
                !version.isEmpty
            else {
                return fail { .unnamed(line: excerpt, lastErrorLine: $0) }
            }
            let implementation = ValidateSession.Implementation(
                name: name, version: version, levels: levels.sorted(), coverage: coverage)
            return .success((p, implementation))
        }
    }
}
