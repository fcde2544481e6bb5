/// What a replay gave (``ScenarioReplay/run()``).
public struct ReplayOutcome: Sendable, Hashable {
    /// The callbacks, in the engine's total order (time, then the order of ENGINE-O1 to
    /// ENGINE-O3), as `replay` prints them.
    public var events: [ReplayEvent]
    /// The Unix time of scenario time 0, seconds.
    public var timeOrigin: Double
    /// Sightings the captures and sound files gave the engine.
    public var sightings: Int
    /// How the captures' records were accounted for, all captures together.
    public var records: RecordCounts
    /// Faults inside the captures (the replay went on past them).
    public var issues: [CaptureIssue]
}
