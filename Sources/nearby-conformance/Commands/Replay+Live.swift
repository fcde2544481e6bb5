import ArgumentParser
import NearbyJSON
import NearbyMessages
import NearbyReplay

extension Replay {
    /// `replay --live`: the callbacks printed as they fire, then how the session ended and
    /// the command that replays the written capture to the same callbacks.
    func runLive(_ loaded: Scenario) throws {
        let capture = try live.open()
        var out = JSONWriter()
        let result: ReplaySession.LiveResult
        do {
            result = try ReplaySession().runLive(
                scenario: loaded, capture: capture,
                onEvent: { event in
                    replayOutput.line(event, to: &out)
                    _ = out.withBytes { FileDescriptorOutput.write($0, fd: 1) }
                    out.removeAll()
                },
                onIssue: { printError($0.description) })
        } catch {
            printError("error: \(error)")
            _ = live.report(capture)
            throw ExitCode(ExitStatus.failure)
        }
        let ended = live.report(capture)
        if result.inputsNotReached > 0 {
            printError("note: \(result.inputsNotReached) scenario events come after the stop and were not applied")
        }
        if result.advertisementsBeforeStart > 0 {
            printError(
                "note: \(result.advertisementsBeforeStart) beacon advertisements arrived before scanning started "
                    + "and were not replayed")
        }
        if let write = live.write {
            let origin = JSONValue.seconds(micros: result.originUnixMicros).serialized
            let end = JSONValue.seconds(micros: result.endMicros).serialized
            printError(
                "replay the written capture to the same callbacks: nearby-conformance replay --scenario \(scenario) "
                    + "--capture \(write) --time-origin \(origin) --end \(end)")
        }
        if !ended { throw ExitCode(ExitStatus.failure) }
        if let loss = result.accounting.lossSummary {
            printError("warning: \(live.source ?? ""): \(loss); the callbacks miss whatever those records held")
            throw ExitCode(ExitStatus.partiallyDecoded)
        }
    }
}
