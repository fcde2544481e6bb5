import Foundation
import NearbyCapture
import NearbyMessages
import NearbyModelSupport
import NearbyReplay
import NearbySynthesis
import NearbyTestSupport
import Testing

/// The plain model (`ReferenceModel`, shared with NearbyMessagesTests by symbolic links) against
/// `replay` itself: generated scenarios whose BLE sightings are split between the scenario's
/// `sighting` events and a btsnoop capture, the scenario written as a file and read by the
/// product's reader, both run through `ReplaySession` as `replay` runs them. The model merges
/// the two by its own reading of ENGINE-O1A (at one microsecond the scenario's events first,
/// then the capture's records in order); the replay must give the same events.
///
/// `swift test` runs 300 scenarios; `NEARBY_REPLAY_MODEL_SCENARIOS` sets how many.
struct ReplayModelTests {
    @Test func replayAndThePlainModelAgreeOnScenariosWithCaptures() throws {
        let env = ProcessInfo.processInfo.environment
        let count = env["NEARBY_REPLAY_MODEL_SCENARIOS"].flatMap(UInt64.init) ?? 300
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var captured = 0, atOneInstant = 0, events = 0
        for seed in 1...count {
            var g = ScenarioGenerator(seed: seed &+ 1_000_000, fileSafe: true)
            let s = Self.withSightingsAtActions(g.make(capturePercent: 50).accepted())
            let (failure, stats) = try Self.compare(s, dir: dir)
            captured += stats.captured
            atOneInstant += stats.atOneInstant
            events += stats.events
            if let failure {
                Issue.record(Comment(rawValue: "seed \(seed &+ 1_000_000): \(failure)\ninputs:\n\(s.log)"))
                return
            }
        }
        #expect(captured > 0 && atOneInstant > 0 && events > 0)
        print(
            "ReplayModelTests: \(count) scenarios, \(captured) capture sightings (\(atOneInstant) at the instant of a "
                + "scenario event), \(events) events; replay and the model agree")
    }

    /// The scenario with, before every other action, a capture sighting at the action's
    /// instant of the identity sighted last over BLE: replay feeds it after the action
    /// (ENGINE-O1A), so the action decides whether it counts.
    static func withSightingsAtActions(_ s: ModelScenario) -> ModelScenario {
        var out = s
        out.inputs = []
        var last: SightingIdentity?
        for (i, input) in s.inputs.enumerated() {
            switch input {
            case .action(let t, _):
                if i % 2 == 0, let id = last {
                    out.inputs.append(.sighting(Sighting(timeMicros: t, medium: .ble, identity: id), capture: true))
                }
            case .sighting(let x, _):
                if x.medium == .ble { last = x.identity }
            }
            out.inputs.append(input)
        }
        return out
    }

    /// A capture's time base: the Unix time of scenario time 0 when the scenario gives none.
    static let captureBase: Int64 = 1_600_000_000_000_000

    static func advertisingData(_ identity: SightingIdentity) -> [UInt8] {
        let b = identity.bytes
        switch identity.kind {
        case .token: return BeaconAdvertisingData.token(b, txPower: -12)
        case .eddystoneUID:
            return BeaconAdvertisingData.eddystoneUID(
                namespace: Array(b[0..<10]), instance: Array(b[10..<16]), txPower: -20)
        case .iBeacon: return BeaconAdvertisingData.iBeacon(uuidMajorMinor: b, measuredPower: -59)
        case .altBeacon: return BeaconAdvertisingData.altBeacon(manufacturer: 0x0118, beaconID: b, referenceRSSI: -59)
        case .eddystoneEID: return BeaconAdvertisingData.eddystoneEID(b, txPower: -20)
        }
    }

    static func compare(
        _ s: ModelScenario, dir: TemporaryDirectory
    ) throws -> (String?, (captured: Int, atOneInstant: Int, events: Int)) {
        // The capture: its records in the generator's order; a flags-only advertisement at
        // scenario time 0 anchors "firstAdvertisement".
        let origin = s.originUnixMicros ?? captureBase
        var w = BtsnoopWriter(datalink: .hciUART)
        func record(_ data: [UInt8], at t: Int64) {
            let event = FixtureEvents.legacyReportEvent([
                FixtureEvents.legacyReport(
                    eventType: 0x03, addressType: 0x01, address: "c0:00:00:00:00:01", data: data, rssi: -60)
            ])
            w.append(event, flags: BtsnoopWriter.Flags.receivedEvent, timestampMicros: origin + t)
        }
        record([0x02, 0x01, 0x06], at: 0)
        var modelInputs: [ReferenceModel.ReplayInput] = []
        var captured = 0, atOneInstant = 0
        let actionTimes = Set(s.inputs.compactMap { if case .action(let t, _) = $0 { t } else { nil } })
        for input in s.inputs {
            switch input {
            case .action(let t, let a): modelInputs.append(.action(t, a))
            case .sighting(let x, let c) where c:
                captured += 1
                if actionTimes.contains(x.timeMicros) { atOneInstant += 1 }
                record(advertisingData(x.identity), at: x.timeMicros)
                // Record 1 is the anchor.
                modelInputs.append(.captureSighting(x, capture: 0, record: captured + 1))
            case .sighting(let x, _): modelInputs.append(.scenarioSighting(x))
            }
        }
        let capture = dir.write(w.bytes, to: "capture.btsnoop")
        let text = ModelScenarioJSON.scenario(s, captureSightings: false).text() + "\n"
        let path = dir.write(Array(text.utf8), to: "scenario.json")

        var model = s.model()
        model.replay(modelInputs, end: s.end)
        let scenario = try Scenario.load(path)
        let result = try ReplaySession().run(scenario: scenario, captures: [capture], onIssue: { _ in })
        let a = result.events.map(ModelScenario.render), b = model.events.map(ModelScenario.render)
        let stats = (captured, atOneInstant, b.count)
        guard a != b else { return (nil, stats) }
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return (
            "event #\(i) differs\n  replay: \(i < a.count ? a[i] : "(none)")\n"
                + "  model:  \(i < b.count ? b[i] : "(none)")\n"
                + text, stats
        )
    }
}
