import NearbyJSON
import NearbyMessages
import NearbyTestSupport
import Testing

/// Scenario and registry files: a valid file reads into the model; a bad one is rejected with
/// the file, the JSON path and the reason, and yields nothing.
@Suite struct ScenarioFileTests {
    static let valid = """
        {
          "scenario": 1,
          "description": "two subscriptions, a state change, an audio sighting",
          "lostTimeoutSeconds": 2.5,
          "projectNamespace": "proj",
          "timeOrigin": {"unixSeconds": 1552223545.5},
          "initialState": {"bluetoothPower": "off", "appState": "background"},
          "registry": {
            "registry": 1,
            "publications": [{"id": "hello", "message": {"type": "chat", "content": "aGVsbG8="},
                              "tokens": [{"token": "aaaaaaaaaaaa", "mediums": ["audio"], "until": 100}]}],
            "beacons": [{"advertisedId": {"type": "EDDYSTONE", "id": "EBESExQVFhcYGRobHB0eHw=="},
                         "attachments": [{"namespacedType": "proj/door", "data": "ZnJvbnQ=",\
         "maxDistanceMeters": 1.5}]}]
          },
          "events": [
            {"time": 0, "subscribe": {"id": "s1", "type": "chat", "strategy": {"discoveryMediums": ["audio"],\
         "ttlSeconds": "infinite"}}},
            {"time": 0.000001, "subscribe": {"id": "s2", "deviceTypesToDiscover": ["bleBeacons"], "type": "door",
                                             "beaconStrategy": {"includeIBeacons": false, "allowInBackground": true}}},
            {"time": 1, "state": {"appState": "foreground"}, "comment": "user opens the app"},
            {"time": 2, "sighting": {"token": "aaaaaaaaaaaa", "medium": "audio", "rssi": -60}},
            {"time": 3, "unsubscribe": "s2"}
          ],
          "end": 20
        }
        """

    static func parse(_ text: String) throws(JSONInputError) -> Scenario {
        let root = JSONNode(try! JSONParser.parse(text))
        var registryPath: String?
        return try Scenario(json: root, registryPath: &registryPath)
    }

    static func rejection(_ text: String) -> JSONInputError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// The valid scenario with one substitution applied.
    static func variant(_ from: String, _ to: String) -> String {
        precondition(valid.contains(from), "the substitution must apply: \(from)")
        return valid.replacingFirst(from, with: to)
    }

    @Test func validScenarioReadsIntoTheModel() throws {
        let s = try Self.parse(Self.valid)
        #expect(s.configuration.lostTimeoutMicros == 2_500_000)
        #expect(s.configuration.projectNamespace == "proj")
        #expect(s.timeOrigin == .unixMicros(1_552_223_545_500_000))
        #expect(s.initialState.bluetoothPowerOn == false && s.initialState.appState == .background)
        #expect(s.initialState.nearbyPermission == .granted, "unset fields keep the default")
        #expect(s.endMicros == 20_000_000)
        #expect(s.inputs.map(\.time) == [0, 1, 1_000_000, 2_000_000, 3_000_000])
        guard case .action(.subscribe(let id, let p)) = s.inputs[0].input else {
            Issue.record("first input")
            return
        }
        #expect(
            id == "s1" && p.strategy.mediums == .audio && p.strategy.ttl == .infinite && p.deviceTypes == .nearbyDevices
        )
        guard case .action(.subscribe(_, let p2)) = s.inputs[1].input else {
            Issue.record("second input")
            return
        }
        #expect(
            p2.beaconStrategy
                == BeaconStrategy(includeIBeacons: false, lowPowerPreferred: true, allowInBackground: true))
        #expect(p2.strategy.ttl == .micros(300_000_000))
        #expect(
            s.inputs[3].input
                == .sighting(
                    Sighting(
                        timeMicros: 2_000_000, medium: .audio,
                        identity: SightingIdentity(.token, [0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa]), rssiDBm: -60)))
        #expect(
            s.registry.resolve(
                Sighting(timeMicros: 0, medium: .ble, identity: SightingIdentity(.eddystoneUID, Array(0x10..<0x20))))
                == [Message(namespace: "proj", type: "door", content: Array("front".utf8))])
        #expect(
            s.registry.resolve(
                Sighting(
                    timeMicros: 99_999_999, medium: .audio,
                    identity: SightingIdentity(.token, [0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa])))
                == [Message(namespace: "", type: "chat", content: Array("hello".utf8))])
        #expect(
            s.registry.resolve(
                Sighting(
                    timeMicros: 100_000_000, medium: .audio,
                    identity: SightingIdentity(.token, [0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa]))
            ).isEmpty)
    }

    @Test(arguments: [
        // (substitution from, to, expected path, a phrase of the reason)
        (
            "\"lostTimeoutSeconds\": 2.5", "\"lostTimeoutSeconds\": \"2.5\"", "$.lostTimeoutSeconds",
            "expected a number of seconds, found a string"
        ),
        (
            "\"projectNamespace\": \"proj\"", "\"projectNamespace\": \"proj\", \"colour\": 1", "$.colour",
            "unknown field \"colour\""
        ),
        (
            "\"type\": \"chat\", \"strategy\"", "\"type\": \"\(String(repeating: "x", count: 33))\", \"strategy\"",
            "$.events[0].subscribe.type", "33 characters; at most 32"
        ),
        (
            "\"content\": \"aGVsbG8=\"", "\"content\": \"\(Base64.encode([UInt8](repeating: 7, count: 102_401)))\"",
            "$.registry.publications[0].message.content", "102401 bytes; at most 102400"
        ),
        (
            "{\"type\": \"chat\", \"content\"", "{\"type\": \"\(String(repeating: "x", count: 33))\", \"content\"",
            "$.registry.publications[0].message.type", "33 characters; at most 32"
        ),
        (
            "\"namespacedType\": \"proj/door\"", "\"namespacedType\": \"proj/\(String(repeating: "x", count: 33))\"",
            "$.registry.beacons[0].attachments[0].namespacedType", "33 characters; at most 32"
        ),
        (
            "\"data\": \"ZnJvbnQ=\"", "\"data\": \"\(Base64.encode([UInt8](repeating: 7, count: 102_401)))\"",
            "$.registry.beacons[0].attachments[0].data", "102401 bytes; at most 102400"
        ),
        (
            "{\"time\": 3, \"unsubscribe\": \"s2\"}",
            "{\"time\": 3, \"publish\": {\"id\": \"p\", \"message\": {\"type\": "
                + "\"\(String(repeating: "x", count: 33))\", \"content\": \"\"}}}",
            "$.events[4].publish.message.type", "33 characters; at most 32"
        ),
        (
            "{\"time\": 3, \"unsubscribe\": \"s2\"}",
            "{\"time\": 3, \"publish\": {\"id\": \"p\", \"message\": {\"content\": "
                + "\"\(Base64.encode([UInt8](repeating: 7, count: 102_401)))\"}}}",
            "$.events[4].publish.message.content", "102401 bytes; at most 102400"
        ),
        (
            "\"ttlSeconds\": \"infinite\"", "\"ttlSeconds\": 86400.000001", "$.events[0].subscribe.strategy.ttlSeconds",
            "out of range"
        ),
        ("{\"time\": 1, \"state\"", "{\"time\": -1, \"state\"", "$.events[2].time", "out of range"),
        ("{\"time\": 2, \"sighting\"", "{\"time\": 0.5, \"sighting\"", "$.events[3].time", "out of order"),
        ("\"time\": 0.000001", "\"time\": 0.0000001", "$.events[1].time", "whole number of microseconds"),
        (
            "\"discoveryMediums\": [\"audio\"]", "\"discoveryMediums\": [\"wifi\"]",
            "$.events[0].subscribe.strategy.discoveryMediums[0]", "\"wifi\" is not one of"
        ),
        (
            "\"token\": \"aaaaaaaaaaaa\", \"medium\"", "\"token\": \"aaaaaaaaaaaaaa\", \"medium\"",
            "$.events[3].sighting.token", "7 bytes; expected 6 or 8"
        ),
        ("\"unsubscribe\": \"s2\"", "\"unsubscribe\": \"s3\"", "$.events[4].unsubscribe", "no subscription \"s3\""),
        ("\"id\": \"s2\"", "\"id\": \"s1\"", "$.events[1].subscribe.id", "\"s1\" is in use"),
        ("\"scenario\": 1", "\"scenario\": 2", "$.scenario", "out of range 1…1"),
        (
            "\"type\": \"EDDYSTONE\"", "\"type\": \"EDDYSTONE_EID\"", "$.registry.beacons[0]",
            "\"ephemeralIdRegistration\" (identity key, rotation exponent, clock), which is missing"
        ),
        (
            "\"id\": \"EBESExQVFhcYGRobHB0eHw==\"", "\"id\": \"EBESExQVFhcYGRobHB0e\"",
            "$.registry.beacons[0].advertisedId.id", "16 bytes"
        ),
        ("\"data\": \"ZnJvbnQ=\"", "\"data\": \"ZnJvbnQ\"", "$.registry.beacons[0].attachments[0].data", "base64"),
        (
            "\"namespacedType\": \"proj/door\"", "\"namespacedType\": \"projdoor\"",
            "$.registry.beacons[0].attachments[0].namespacedType", "not \"namespace/type\""
        ),
        ("\"until\": 100", "\"from\": 100, \"until\": 100", "$.registry.publications[0].tokens[0]", "later than"),
        ("\"end\": 20", "\"end\": 2", "$.end", "earlier than the last event"),
        (
            "\"appState\": \"foreground\"}, \"comment\"",
            "\"appState\": \"foreground\"}, \"unsubscribe\": \"s1\", \"comment\"", "$.events[2]", "exactly one of"
        ),
        (
            "\"initialState\": {\"bluetoothPower\": \"off\", \"appState\": \"background\"}", "\"initialState\": {}",
            "$.initialState", "at least one field"
        ),
        ("\"rssi\": -60", "\"rssi\": -129", "$.events[3].sighting.rssi", "out of range -128…127"),
    ])
    func badScenarioIsRejectedWithPathAndReason(from: String, to: String, path: String, reason: String) {
        let error = Self.rejection(Self.variant(from, to))
        #expect(error?.path == path, "\(String(describing: error))")
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func publicationWithInfiniteTTLIsRejected() {
        let text = Self.variant(
            "{\"time\": 3, \"unsubscribe\": \"s2\"}",
            "{\"time\": 3, \"publish\": {\"id\": \"p\", \"message\": {\"content\": \"\"}, \"strategy\": "
                + "{\"ttlSeconds\": \"infinite\"}}}"
        )
        let error = Self.rejection(text)
        #expect(error?.path == "$.events[4].publish.strategy.ttlSeconds")
        #expect(error?.reason.contains("TTL_SECONDS_INFINITE") == true)
    }

    /// docs/scenario-format.md: a type is at most 32 characters (UTF-16 units, ENGINE-V1), not
    /// 32 bytes: 32 "é" (64 bytes of UTF-8) are a valid type.
    @Test func aTypeIsLimitedInCharactersNotBytes() throws {
        let type = String(repeating: "\u{E9}", count: 32)
        let s = try Self.parse(Self.variant("{\"type\": \"chat\", \"content\"", "{\"type\": \"\(type)\", \"content\""))
        #expect(s.registry.publications.map { Array($0.message.type.utf8) } == [Array(type.utf8)])
    }

    /// Ids are byte for byte (ENGINE-R4): a registry's publications "café" with
    /// U+00E9 and "cafe" + U+0301 are two publications, not one id given twice.
    @Test func canonicallyEquivalentPublicationIdsAreTwo() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let s = try Self.parse(
            Self.variant(
                "{\"id\": \"hello\"",
                "{\"id\": \"\(composed)\", \"message\": {\"content\": \"\"}, \"tokens\": []}, "
                    + "{\"id\": \"\(decomposed)\""))
        #expect(s.registry.publications.map { Array($0.id.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)])
    }

    /// docs/scenario-format.md: a duplicate key is an error naming the file and the JSON path
    /// (of the repeated member), with the line and column (from 1, in bytes) of the repeat.
    @Test(arguments: [
        // (substitution from, to, the key repeated, expected path)
        (
            "{\"time\": 3, \"unsubscribe\": \"s2\"}", "{\"time\": 3, \"unsubscribe\": \"s2\", \"time\": 4}", "time",
            "$.events[4].time"
        ),
        (
            "\"lostTimeoutSeconds\": 2.5", "\"lostTimeoutSeconds\": 2.5, \"lostTimeoutSeconds\": 3",
            "lostTimeoutSeconds", "$.lostTimeoutSeconds"
        ),
        (
            "\"data\": \"ZnJvbnQ=\"", "\"data\": \"ZnJvbnQ=\", \"data\": \"ZnJvbnQ=\"", "data",
            "$.registry.beacons[0].attachments[0].data"
        ),
        ("\"description\": \"two", "\"a b\": 1, \"a b\": 2, \"description\": \"two", "a b", "$[\"a b\"]"),
    ])
    func aDuplicateKeyIsNamedByItsJSONPath(from: String, to: String, key: String, path: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = Self.variant(from, to)
        let file = dir.write(Array(text.utf8), to: "duplicate.json")
        // Where the key is repeated: the second of the two on the one line that has it twice.
        let quoted = "\"\(key)\""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.ranges(of: quoted).count == 2 })
        let second = try #require(lines[index].ranges(of: quoted).last).lowerBound
        let column = lines[index].utf8.distance(from: lines[index].startIndex, to: second) + 1
        do {
            _ = try Scenario.load(file)
            Issue.record("a duplicate key must be rejected")
        } catch {
            #expect(error.file == file)
            #expect(error.location == path, "\(error)")
            #expect(error.code == .duplicateKey, "\(error)")
            #expect(error.reason == "duplicate key \(quoted)", "\(error)")
            #expect(error.line == index + 1 && error.column == column, "\(error)")
            #expect(
                error.description == "\(file): \(path): duplicate key \(quoted) (line \(index + 1), column \(column))")
        }
    }

    @Test func fileErrorsNameTheFileAndLineForSyntaxErrors() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(Array("{\n  \"scenario\": 1,\n  \"events\": [,]\n}\n".utf8), to: "broken.json")
        do {
            _ = try Scenario.load(path)
            Issue.record("a syntax error must be rejected")
        } catch {
            #expect(error.description == "\(path): line 3, column 14: unexpected character where a value was expected")
            #expect(error.code == .syntax)
        }
    }

    @Test func registryFileErrorsNameTheRegistryFile() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        _ = dir.write(Array("{\"scenario\": 1, \"registry\": \"reg.json\"}".utf8), to: "s.json")
        _ = dir.write(
            Array(
                ("{\"registry\": 1, \"beacons\": [{\"advertisedId\": {\"type\": \"IBEACON\", \"id\": \"AA==\"}, "
                    + "\"attachments\": []}]}")
                    .utf8), to: "reg.json")
        do {
            _ = try Scenario.load(dir.path + "/s.json")
            Issue.record("a bad registry must be rejected")
        } catch {
            #expect(error.file == dir.path + "/reg.json")
            #expect(error.location == "$.beacons[0].advertisedId.id")
            #expect(error.code == .invalidValue)
            #expect(error.reason.contains("20 bytes"))
        }
    }

    @Test func missingFileIsReportedNotCrashed() {
        let error = #expect(throws: JSONInputError.self) { _ = try Scenario.load("/nonexistent/scenario.json") }
        #expect(error?.code == .unreadable)
        #expect(error?.location == "")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = range(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(r, with: replacement)
        return copy
    }
}
