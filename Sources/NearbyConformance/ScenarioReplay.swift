import NearbyJSON
import NearbyMessages
import NearbyReplay

/// A scenario replayed through the subscription engine, as `nearby-conformance replay` runs
/// it: the app's actions and state changes from the scenario file, the sightings of its
/// captures and sound files, merged in time order → found, lost and the other callbacks
/// (docs/spec/engine.md; files: docs/scenario-format.md).
///
/// ```swift
/// let replay = try ScenarioReplay(scenario: "Captures/synthetic/office-walk.scenario.json",
///                                 captures: ["Captures/synthetic/office-walk/phone.pcap"])
/// for event in try replay.run().events where event.kind == "found" { … }
/// ```
public struct ScenarioReplay: Sendable {
    /// A sound file and the scenario time of its first sample.
    public struct SoundFile: Sendable, Hashable {
        /// The file's path (any format libsndfile reads, 44.1 kHz or more).
        public var path: String
        /// Scenario time of the first sample, seconds (microsecond resolution).
        public var start: Double

        /// Names a sound file starting at scenario time `start`.
        public init(path: String, start: Double = 0) {
            self.path = path
            self.start = start
        }
    }

    let scenario: Scenario
    /// The capture files whose sightings are replayed.
    public var captures: [String]
    /// The sound files whose NUT tokens are replayed.
    public var soundFiles: [SoundFile]

    /// Reads the scenario file at `scenario` (and the registry it names, relative to it);
    /// throws `scenario/refused` with the JSON path of the first rule it breaks.
    public init(scenario path: String, captures: [String] = [], soundFiles: [SoundFile] = []) throws(ConformanceError) {
        do {
            scenario = try Scenario.load(path)
        } catch {
            throw ConformanceError(.scenarioRefused, file: error.file, error.message)
        }
        self.captures = captures
        self.soundFiles = soundFiles
    }

    /// Replays the scenario. Faults inside the captures become ``ReplayOutcome/issues`` and
    /// the replay goes on; a capture or sound file that cannot be read throws
    /// `replay/failed`.
    public func run() throws(ConformanceError) -> ReplayOutcome {
        var issues: [CaptureIssue] = []
        let result: ReplaySession.Result
        do {
            result = try ReplaySession().run(
                scenario: scenario, captures: captures,
                audio: soundFiles.map {
                    ReplaySession.AudioFile(path: $0.path, startMicros: Int64(($0.start * 1e6).rounded()))
                },
                onIssue: { issues.append(CaptureIssue($0)) })
        } catch {
            throw ConformanceError(.replayFailed, file: nil, error.reason)
        }
        return ReplayOutcome(
            events: result.events.map { ReplayEvent(EventJSON.object($0)) },
            timeOrigin: Double(result.originUnixMicros) / 1e6,
            sightings: result.captureSightings + result.audioSightings,
            records: RecordCounts(result.accounting), issues: issues)
    }
}
