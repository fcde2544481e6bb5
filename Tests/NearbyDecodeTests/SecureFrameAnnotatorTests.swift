import Foundation
import NearbyBytes
import NearbyDecode
import NearbyDecodeSession
import NearbyJSON
import NearbySecurity
import NearbyTestSupport
import Testing

/// `decode --registry`: EID frames resolved to registered beacons and eTLM frames decrypted
/// (docs/spec/eddystone-crypto.md, EID-CRYPTO-13, ETLM-CRYPTO-10 to ETLM-CRYPTO-12), over the
/// synthesized capture `eid-rotation` (docs/synthesis.md) and hand-made frames.
@Suite struct SecureFrameAnnotatorTests {
    static let origin: Int64 = 1_767_225_600_000_000
    static let capture = RepositoryPaths.root + "/Captures/synthetic/eid-rotation/eid-rotation.btsnoop"

    /// The registrations of Captures/synthetic/eid-rotation.scenario.json, in Unix time.
    static func annotator() -> SecureFrameAnnotator {
        let desk = EIDRegistration(
            generator: try! EIDGenerator(identityKey: Hex.decode("0102030405060708090a111213141516")!, exponent: 4),
            beaconClockAtRegistration: 65_500, registeredAtMicros: origin)
        // The identity key ephemeral_calc's key pairs give (KEYS-3).
        let lobby = EIDRegistration(
            generator: try! EIDGenerator(identityKey: Hex.decode("f40d6f18e5882260e847e99ca33ac44f")!, exponent: 5),
            beaconClockAtRegistration: 1_000_000, registeredAtMicros: origin - 30 * 86_400_000_000)
        return SecureFrameAnnotator(beacons: [("desk", desk), ("lobby", lobby)])
    }

    static func beacons(_ session: DecodeSession) -> [[String: JSONValue]] {
        var out: [[String: JSONValue]] = []
        _ = session.run(
            paths: [capture],
            output: { line in
                guard case .object(let o)? = try? JSONParser.parse(line), case .array(let bs)? = o["beacons"] else {
                    return
                }
                for case .object(var b) in bs {
                    b["address"] = o["address"]
                    out.append(b)
                }
            }, diagnostics: { Issue.record("\($0)") })
        return out
    }

    // EID-CRYPTO-13, ETLM-CRYPTO-10, ETLM-CRYPTO-12.
    @Test func everyRegisteredEIDResolvesAndEveryETLMDecrypts() {
        var session = DecodeSession(beaconsOnly: true)
        session.secureFrames = Self.annotator()
        let beacons = Self.beacons(session)
        let eids = beacons.filter { $0["type"] == .string("eddystone-eid") }
        let etlms = beacons.filter { $0["type"] == .string("eddystone-etlm") }
        #expect(eids.count > 300 && etlms.count > 150)
        // The stranger's key 0011…eeff is registered nowhere; its frames come from its own
        // addresses. Every other EID resolves to exactly one beacon.
        var byName: [String: Int] = [:]
        for e in eids {
            guard case .array(let r)? = e["resolved"] else {
                Issue.record("no resolved field")
                continue
            }
            if r.isEmpty {
                byName["none", default: 0] += 1
                continue
            }
            #expect(r.count == 1)
            if case .object(let m) = r[0], case .string(let n)? = m["beaconName"] { byName[n, default: 0] += 1 }
        }
        #expect(byName.keys.sorted() == ["desk", "lobby", "none"])
        // eTLM: battery and temperature as the world gives them (3000 mV, 21.5 °C; 2800 mV,
        // −5.25 °C); uptime never decreasing per beacon.
        var lastUptime: [String: Double] = [:]
        for t in etlms {
            guard case .object(let tel)? = t["telemetry"], case .string(let name)? = tel["beaconName"] else {
                Issue.record("undecrypted eTLM: \(String(describing: t["telemetryError"]))")
                continue
            }
            let expected = name == "desk" ? ("3000", "21.5") : ("2800", "-5.25")
            #expect(tel["batteryMillivolts"]?.serialized == expected.0)
            #expect(tel["temperatureCelsius"]?.serialized == expected.1)
            if case .number(let text)? = tel["uptimeSeconds"], let up = Double(text) {
                #expect(up >= lastUptime[name, default: 0])
                lastUptime[name] = up
            }
        }
        #expect(lastUptime.keys.sorted() == ["desk", "lobby"])
    }

    // EDDYSTONE-EID-4, EDDYSTONE-ETLM-5.
    @Test func withoutTheRegistryNothingIsAdded() {
        let beacons = Self.beacons(DecodeSession(beaconsOnly: true))
        #expect(!beacons.isEmpty)
        #expect(beacons.allSatisfy { $0["resolved"] == nil && $0["telemetry"] == nil && $0["telemetryError"] == nil })
    }

    /// Hex text has no times: an EID there cannot be placed against a beacon's clock, so it
    /// is not resolved, and the line says why. Holds EID-CRYPTO-14.
    @Test func anEIDWithoutATimeIsNotResolvedAndSaysWhy() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // One LE Advertising Report (ADV_NONCONN_IND, random address) carrying Flags, the
        // Eddystone UUID list and an EID frame (Tx −20 dBm).
        let ad = "0201060303aafe0d16aafe30ec0123456789abcdef"
        let report = "03" + "01" + "010000eeffc0" + String(format: "%02x", ad.count / 2) + ad + "c4"
        let event = "043e" + String(format: "%02x", report.count / 2 + 2) + "0201" + report
        let file = dir.write(Array("packet1\t\(event)\n".utf8), to: "eid.txt")
        var session = DecodeSession(beaconsOnly: true)
        session.secureFrames = Self.annotator()
        var beacons: [[String: JSONValue]] = []
        _ = session.run(
            paths: [file],
            output: { line in
                guard case .object(let o)? = try? JSONParser.parse(line), case .array(let bs)? = o["beacons"] else {
                    return
                }
                for case .object(let b) in bs { beacons.append(b) }
            }, diagnostics: { Issue.record("\($0)") })
        let eid = try #require(beacons.first { $0["type"] == .string("eddystone-eid") }, "\(beacons)")
        #expect(eid["resolved"] == .null)
        guard case .string(let why)? = eid["resolveError"] else {
            Issue.record("no resolveError: \(eid)")
            return
        }
        #expect(!why.isEmpty)
    }

    // ETLM-CRYPTO-11, ETLM-CRYPTO-12.
    @Test func anETLMWhoseKeyIsNotRegisteredGetsAnError() {
        // Only the lobby beacon registered: the desk's eTLM frames cannot be decrypted.
        let lobby = EIDRegistration(
            generator: try! EIDGenerator(identityKey: Hex.decode("f40d6f18e5882260e847e99ca33ac44f")!, exponent: 5),
            beaconClockAtRegistration: 1_000_000, registeredAtMicros: Self.origin - 30 * 86_400_000_000)
        var session = DecodeSession(beaconsOnly: true)
        session.secureFrames = SecureFrameAnnotator(beacons: [("lobby", lobby)])
        let errors = Self.beacons(session).compactMap { b -> String? in
            if case .string(let e)? = b["telemetryError"] { return e }
            return nil
        }
        #expect(!errors.isEmpty)
        #expect(
            errors.allSatisfy { $0.contains("no registered beacon's identity key gives MIC") }, "\(errors.prefix(2))")
    }
}
