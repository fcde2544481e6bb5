import NearbyCapture
import NearbyFormats
import NearbyMessages
import NearbyTestSupport
import Testing

@testable import NearbyReplay

/// The replay with its sightings spilled to a file (a run capacity of a few sightings, where
/// the default is 2^17) gives the events written by hand for `ReplayTests.timeline()`,
/// however the captures' records are ordered and split.
@Suite struct ReplaySpillTests {
    static func replay(_ captures: [String], capacity: Int, _ dir: TemporaryDirectory) throws -> ReplaySession.Result {
        let scenario = try Scenario.load(dir.write(Array(ReplayTests.scenario().utf8), to: "s.json"))
        var session = ReplaySession()
        session.sightingRunCapacity = capacity
        return try session.run(scenario: scenario, captures: captures, onIssue: { Issue.record("\($0)") })
    }

    @Test(arguments: [1, 2, 5])
    func aCaptureInTimeOrderReplaysTheSameWithItsSightingsSpilled(capacity: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let r = try Self.replay([ReplayTests.writeCapture(dir)], capacity: capacity, dir)
        #expect(r.captureSightings == 6)
        #expect(r.events.map { EventJSON.object($0).serialized } == ReplayTests.expectedEvents)
    }

    /// The records shuffled (the clock steps back four times) and split over two captures:
    /// the spilled runs are out of order, and only a merge by time gives the events.
    @Test(arguments: [1, 2, 3])
    func capturesOutOfTimeOrderAreMergedByTimeWhenSpilled(capacity: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let t = ReplayTests.timeline()
        let first = ReplayTests.write([t[5], t[0], t[3]], "a.btsnoop", dir)
        let second = ReplayTests.write([t[6], t[2], t[4], t[1]], "b.btsnoop", dir)
        let r = try Self.replay([first, second], capacity: capacity, dir)
        #expect(r.captureSightings == 6)
        #expect(r.originUnixMicros == ReplayTests.t0, "the earliest advertisement, in the middle of a.btsnoop")
        #expect(r.events.map { EventJSON.object($0).serialized } == ReplayTests.expectedEvents)
        var session = ReplaySession()
        session.sightingRunCapacity = capacity
        let order = try session.sightings(
            scenario: Scenario.load(dir.file("s.json")), captures: [first, second], audio: [])
        #expect(order.sightings.map(\.timeMicros) == [0, 1_000_000, 1_500_000, 2_000_000, 3_000_000, 4_000_000])
    }

    @Test func aReplayWhoseSightingsCannotBeSpilledFailsNamingTheFolder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = ReplayTests.writeCapture(dir)
        var session = ReplaySession()
        session.sightingRunCapacity = 2
        session.spillFolder = dir.file("missing")
        let scenario = try Scenario.load(dir.write(Array(ReplayTests.scenario().utf8), to: "s.json"))
        let error = try #require(throws: ReplayError.self) {
            try session.run(scenario: scenario, captures: [capture], onIssue: { _ in })
        }
        #expect(error.reason.hasPrefix("cannot create a temporary file in \(dir.file("missing"))"), "\(error)")
    }

    /// The figures docs/ and `replay --help` give: 56 bytes a spilled sighting, so the
    /// in-memory run of 2^17 is 7 MiB.
    @Test func aSpilledSightingTakesTheBytesTheDocumentationStates() {
        #expect(MemoryLayout<ReplaySession.CaptureSighting>.stride == 56)
        #expect(ReplaySession().sightingRunCapacity * 56 == 7 << 20)
    }
}
