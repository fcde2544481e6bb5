import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySecurity
import Testing

/// Eddystone-EID beacons in the registry: reading their registration, resolving rotating
/// EIDs to their attachments in the engine (ENGINE-R2A), and refusing bad entries with path and reason.
/// EIDs used here are the published and derived vectors of docs/spec/eddystone-crypto.md (identity key
/// 0102…1516, K = 10: a9b76a71c5f89290 for beacon times 0…1023, 4144413e45fefa58 for
/// 1024…2047, abf8b049c8a00d96 from 2048).
@Suite struct EIDRegistryTests {
    static let ik = "AQIDBAUGBwgJChESExQVFg=="  // 0102030405060708090a111213141516

    static func registry(_ registration: String, id: String? = nil) throws(JSONInputError) -> Registry {
        let idField = id.map { ", \"id\": \"\($0)\"" } ?? ""
        let text = """
            {"registry": 1, "beacons": [
              {"advertisedId": {"type": "EDDYSTONE_EID"\(idField)}, "ephemeralIdRegistration": \(registration),
               "attachments": [{"namespacedType": "proj/door", "data": "ZnJvbnQ="}]}]}
            """
        return try Registry(json: JSONNode(try! JSONParser.parse(text)))
    }

    static let basic =
        #"{"beaconIdentityKey": "\#(ik)", "rotationPeriodExponent": 10, "initialClockValue": 1000, "registeredAt": 0}"#

    static func eid(_ clock: Int64) -> [UInt8] {
        Hex.decode(clock < 1024 ? "a9b76a71c5f89290" : clock < 2048 ? "4144413e45fefa58" : "abf8b049c8a00d96")!
    }

    @Test func aRegistrationReadsWithItsInitialEIDAndName() throws {
        let r = try Self.registry(Self.basic, id: "qbdqccX4kpA=")
        #expect(r.beacons.count == 1)
        #expect(r.beacons[0].advertisedID == SightingIdentity(.eddystoneEID, Hex.decode("a9b76a71c5f89290")!))
        #expect(r.beacons[0].beaconName == "beacons/4!a9b76a71c5f89290")
        #expect(r.beacons[0].ephemeralID?.rotationExponent == 10 && r.beacons[0].ephemeralID?.initialClockValue == 1000)
    }

    @Test func aWrongInitialEIDIsRefused() {
        #expect(
            throws: JSONInputError(
                path: "$.beacons[0].advertisedId.id", code: .invalidValue,
                reason:
                    "the initial EID is qbdqccX4kpA= (a9b76a71c5f89290) for this identity key, exponent and clock, "
                    + "not 4144413e45fefa58"
            )
        ) {
            try Self.registry(Self.basic, id: "QURBPkX++lg=")
        }
    }

    @Test func anIdentityKeyDerivedFromTheKeyPairsResolvesLikeTheKeyItself() throws {
        // [RN-EC] key_pair_spec.rb: these keys give identity key f40d6f18e5882260e847e99ca33ac44f.
        let pub = Base64.encode(Hex.decode("c63e6f89aab47552c8d621a59c81d0af203f6570a4bd7a267a08a17561c8bc2b")!)
        let priv = Base64.encode(Hex.decode("61136adab1bf302f1c49e860196aeefd8fbaa41518b4c226372d6cc469c47278")!)
        let r = try Self.registry(
            #"{"beaconEcdhPublicKey": "\#(pub)", "serviceEcdhPrivateKey": "\#(priv)", "rotationPeriodExponent": 10, "#
                + #""initialClockValue": 0, "registeredAt": 0}"#
        )
        #expect(r.beacons[0].ephemeralID?.identityKey == Hex.decode("f40d6f18e5882260e847e99ca33ac44f"))
    }

    @Test func aRotatingEIDGivesOneFoundAndOneLost() throws {
        // The beacon's clock reads 1000 at time 0: its EID changes at 24 s and at 1048 s.
        let r = try Self.registry(Self.basic)
        var engine = SubscriptionEngine(registry: r)
        var events: [EngineEvent] = []
        try engine.perform(
            .subscribe(
                id: "s",
                SubscriptionParams(
                    deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door", strategy: Strategy(ttl: .infinite)
                )), at: 0, into: &events)
        var rotations = Set<[UInt8]>()
        for t in stride(from: Int64(0), through: 1100, by: 5) {
            rotations.insert(Self.eid(1000 + t))
            try engine.sight(
                Sighting(
                    timeMicros: t * 1_000_000, medium: .ble,
                    identity: SightingIdentity(.eddystoneEID, Self.eid(1000 + t))), into: &events)
        }
        _ = engine.finish(into: &events)
        #expect(rotations.count == 3)
        #expect(events.map(\.kind) == [.found, .lost])
        #expect(events.map(\.timeMicros) == [0, 1_110_000_000])
        #expect(events.first?.message == Message(namespace: "proj", type: "door", content: Array("front".utf8)))
    }

    @Test func anEIDOfAnotherPeriodOrKeyStandsForNothing() throws {
        let r = try Self.registry(Self.basic)
        // At time 0 the clock reads 1000 (period 0…1023). The window is 1 + ⌈1 s / 1024 s⌉ = 2
        // periods either side: abf8… (period 2048…3071) is inside it.
        #expect(
            r.resolve(Sighting(timeMicros: 0, medium: .ble, identity: SightingIdentity(.eddystoneEID, Self.eid(2048))))
                .count == 1)
        // At 3000 s the clock reads 4000 (period 3072…4095): the EID of period 0 is 3 periods back.
        #expect(
            r.resolve(
                Sighting(
                    timeMicros: 3_000_000_000, medium: .ble, identity: SightingIdentity(.eddystoneEID, Self.eid(0)))
            ).isEmpty)
        #expect(
            r.resolve(
                Sighting(
                    timeMicros: 3_000_000_000, medium: .ble, identity: SightingIdentity(.eddystoneEID, Self.eid(2048)))
            ).count == 1)
        #expect(
            r.resolve(
                Sighting(
                    timeMicros: 0, medium: .ble,
                    identity: SightingIdentity(.eddystoneEID, [UInt8](repeating: 0, count: 8)))
            ).isEmpty)
    }

    @Test func aRegistrationInUnixTimeIsPlacedByTheScenarioOrigin() throws {
        let r = try Self.registry(
            #"{"beaconIdentityKey": "\#(Self.ik)", "rotationPeriodExponent": 10, "initialClockValue": 1000, "#
                + #""registeredAt": {"unixSeconds": 1700000000}}"#
        )
        let placed = r.placed(originUnixMicros: 1_700_000_000_000_000 - 3_000_000_000)
        // Scenario time 3000 s is the registration: the clock reads 1000 (EID a9b7…).
        let at3000 = Sighting(
            timeMicros: 3_000_000_000, medium: .ble, identity: SightingIdentity(.eddystoneEID, Self.eid(1000)))
        #expect(placed.resolve(at3000).count == 1)
        #expect(r.resolve(at3000).isEmpty, "unplaced, scenario time 0 is the Unix epoch: years before the registration")
    }

    @Test(arguments: [
        (
            #"{"beaconIdentityKey": "AQID", "rotationPeriodExponent": 10, "initialClockValue": 0, "registeredAt": 0}"#,
            "$.beacons[0].ephemeralIdRegistration.beaconIdentityKey", "16 bytes (AES-128), found 3"
        ),
        (
            #"{"beaconIdentityKey": "\#(ik)", "rotationPeriodExponent": 16, "initialClockValue": 0, "registeredAt": "#
                + #"0}"#,
            "$.beacons[0].ephemeralIdRegistration.rotationPeriodExponent", "out of range 0…15"
        ),
        (
            #"{"beaconIdentityKey": "\#(ik)", "rotationPeriodExponent": 10, "initialClockValue": 4294967296, "#
                + #""registeredAt": 0}"#,
            "$.beacons[0].ephemeralIdRegistration.initialClockValue", "out of range"
        ),
        (
            #"{"beaconIdentityKey": "\#(ik)", "rotationPeriodExponent": 10, "initialClockValue": 0}"#,
            "$.beacons[0].ephemeralIdRegistration", "\"registeredAt\""
        ),
        (
            #"{"rotationPeriodExponent": 10, "initialClockValue": 0, "registeredAt": 0}"#,
            "$.beacons[0].ephemeralIdRegistration", "give \"beaconIdentityKey\""
        ),
        (
            #"{"beaconIdentityKey": "\#(ik)", "beaconEcdhPublicKey": "\#(ik)", "rotationPeriodExponent": 10, "#
                + #""initialClockValue": 0, "registeredAt": 0}"#,
            "$.beacons[0].ephemeralIdRegistration", "not both"
        ),
        (
            #"{"beaconEcdhPublicKey": "\#(String(repeating: "A", count: 43))=", "serviceEcdhPrivateKey": "#
                + #""\#(String(repeating: "A", count: 43))=", "rotationPeriodExponent": 10, "initialClockValue": 0, "#
                + #""registeredAt": 0}"#,
            "$.beacons[0].ephemeralIdRegistration.beaconEcdhPublicKey", "low-order point"
        ),
        (
            #"{"beaconIdentityKey": "\#(ik)", "rotationPeriodExponent": 10, "initialClockValue": 0, "registeredAt": "#
                + #"0, "k": 1}"#,
            "$.beacons[0].ephemeralIdRegistration.k", "unknown field \"k\""
        ),
    ])
    func aMalformedRegistrationIsRefusedWithPathAndReason(registration: String, path: String, reason: String) {
        do {
            _ = try Self.registry(registration)
            Issue.record("accepted: \(registration)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func anEIDBeaconWithoutRegistrationAndARegistrationOnAnotherBeaconAreRefused() {
        let missing =
            #"{"registry": 1, "beacons": [{"advertisedId": {"type": "EDDYSTONE_EID", "id": "qbdqccX4kpA="}, "#
            + #""attachments": []}]}"#
        #expect(throws: JSONInputError.self) { try Registry(json: JSONNode(try! JSONParser.parse(missing))) }
        let misplaced =
            #"{"registry": 1, "beacons": [{"advertisedId": {"type": "EDDYSTONE", "id": "EBESExQVFhcYGRobHB0eHw=="}, "#
            + #""ephemeralIdRegistration": {}, "attachments": []}]}"#
        #expect(
            throws: JSONInputError(
                path: "$.beacons[0].ephemeralIdRegistration", code: .invalidValue,
                reason: "only an EDDYSTONE_EID beacon has an ephemeralIdRegistration")
        ) {
            try Registry(json: JSONNode(try! JSONParser.parse(misplaced)))
        }
    }
}
