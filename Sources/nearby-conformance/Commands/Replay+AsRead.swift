import ArgumentParser
import NearbyJSON
import NearbyMessages
import NearbyReplay
import NearbySystem

extension Replay {
    /// `replay --reorder-window`: one capture replayed as it is read, each batch of callbacks
    /// written as soon as the engine makes it; then the notes, and the late advertisements.
    func runAsRead(_ loaded: Scenario, window: ExactSeconds) throws {
        let stream = ReplayOutput.Stream(replayOutput) { _ = FileDescriptorOutput.write($0, fd: 1) }
        var faults: [String: Int] = [:]
        let result: ReplaySession.AsReadResult
        do {
            result = try ReplaySession().run(
                scenario: loaded, capture: captures[0], reorderWindowMicros: window.micros,
                onIssue: { issue in
                    if quiet {
                        faults[issue.error.key, default: 0] += 1
                    } else {
                        printError(issue.description)
                    }
                },
                onEvents: { origin, events in
                    stream.events(events, originUnixMicros: origin)
                    stream.flush()
                })
        } catch {
            printError("error: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
        stream.finish(originUnixMicros: result.originUnixMicros)
        if result.untimedBeaconAdvertisements > 0 {
            printError(
                "note: \(result.untimedBeaconAdvertisements) beacon advertisements have no timestamp and were not "
                    + "replayed")
        }
        if !faults.isEmpty {
            let count = faults.values.reduce(0, +)
            printError(
                "note: \(count) decoding fault\(count == 1 ? "" : "s") in the capture ("
                    + faults.keys.sorted().map { "\($0) \(faults[$0]!)" }.joined(separator: ", ")
                    + "); without --quiet each is printed")
        }
        var partial = false
        if let first = result.firstLate {
            let seconds = JSONValue.seconds(micros: window.micros).serialized
            printError(
                "warning: \(result.lateAdvertisements) advertisement\(result.lateAdvertisements == 1 ? "" : "s") "
                    + "came more than the reorder window (\(seconds) s) after later ones and "
                    + "\(result.lateAdvertisements == 1 ? "was" : "were") not replayed, the first record "
                    + "\(first.record); replay the capture without --reorder-window, or with a wider one")
            partial = true
        }
        if let loss = result.accounting.lossSummary {
            printError("warning: capture: \(loss); the callbacks miss whatever those records held")
            partial = true
        }
        if partial { throw ExitCode(ExitStatus.partiallyDecoded) }
    }
}
