import NearbyCapture
import NearbyMessages

/// One line of `replay --explain` besides the events (docs/scenario-format.md, "Explaining a
/// replay"): what a sighting did for each subscription, or why an event fired.
public struct ReplayExplanation: Sendable {
    /// Where a sighting came from.
    public enum Origin: Hashable, Sendable {
        /// A capture's record (file name, record number from 1).
        case capture(String, record: Int)
        /// A sound file's NUT frame (file name, frame number from 1).
        case audio(String, frame: Int)
        /// The scenario's own `sighting` event (its index in the scenario's events, from 0).
        case scenario(input: Int)
    }

    /// A sighting as the engine received it.
    public struct SightingRecord: Hashable, Sendable {
        public var sighting: Sighting
        public var origin: Origin
        /// The advertiser's device address, for a sighting from a capture.
        public var address: BluetoothAddress? = nil
    }

    /// The scenario event that caused something: its index (from 0) and its text.
    public struct InputRecord: Hashable, Sendable {
        public var index: Int
        public var text: String
    }

    /// Why an event fired: the rule of docs/spec/engine.md and what set it off.
    public struct Evidence: Hashable, Sendable {
        public var rule: String
        public var reason: String
        /// ENGINE-F1: the sighting that found the message; ENGINE-F2: the last counted sighting.
        public var sighting: SightingRecord?
        /// The scenario event that caused it (ENGINE-F3, ENGINE-F7, ENGINE-D1, ENGINE-D4, ENGINE-H1 to ENGINE-H4 after
        /// an app action).
        public var input: InputRecord?
        /// The timer that fired: `lost-timeout` (ENGINE-F2) or `ttl` (ENGINE-F6, ENGINE-P1).
        public var timer: String?
        /// ENGINE-F3: the sources the state change stopped the subscription counting.
        public var sourcesStopped: EvidenceSources?
    }

    public enum Body: Sendable {
        /// What the sighting did for each subscription the scenario makes, by id.
        case sighting(SightingRecord, [SubscriptionEngine.SightingVerdict])
        /// Why event `event` (an index into the result's events) fired.
        case evidence(event: Int, Evidence)
    }

    /// What one subscription made of every sighting of a replay (the end of `replay --explain`).
    public struct SubscriptionSummary: Hashable, Sendable {
        /// The subscription's id.
        public var subscription: String
        /// The namespace and type it asks for (its latest object; `""` is the project's
        /// namespace, or every type).
        public var namespace: String
        public var type: String
        /// Sightings the replay gave the engine.
        public var sightings = 0
        /// Of them, those it counted (ENGINE-F0).
        public var counted = 0
        /// Those it did not count, by the first rule that stopped them: `rule code` → count.
        public var notCounted: [String: Int] = [:]
        /// ENGINE-R3: what the sightings its filter stopped stood for, `namespace/type` → count.
        public var filteredOut: [String: Int] = [:]
    }

    /// How many events come before this line.
    public var afterEvent: Int
    public var body: Body
}

extension EvidenceSource {
    /// The source's name in explanations: `ble-token`, `audio-token`, `beacon`, `ibeacon`.
    public var name: String {
        switch self {
        case .bleToken: "ble-token"
        case .audioToken: "audio-token"
        case .beacon: "beacon"
        case .iBeacon: "ibeacon"
        }
    }
}
