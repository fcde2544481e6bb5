import Foundation
import NearbyInterop
import NearbyRunner
import NearbyTestSupport
import Testing

/// A captures-level implementation that decodes no beacon but counts records (a container
/// reader: INTEROP-15, INTEROP-17 and INTEROP-28), run against the committed capture
/// vectors (Vectors/captures/fixtures.json: 10 records in each HCI fixture, 6 in each
/// link-layer one).
@Suite struct RecordCountCoverageTests {
    /// A fake implementation: its handshake declares no beacon type and the `records` counts
    /// given; every capture reply is `reply` (a Python dict literal).
    static func run(hello: String, reply: String) -> ValidateSession.Outcome {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let script = """
            import json, sys
            for line in sys.stdin:
                req = json.loads(line)
                if "hello" in req:
                    out = {"hello": {"protocol": 1, "name": "counter", "version": "0", "levels": ["captures"],\
             "beacons": {}\(hello)}}
                else:
                    out = dict(\(reply), id=req["id"])
                sys.stdout.write(json.dumps(out) + "\\n"); sys.stdout.flush()
            """
        let impl = dir.write(Array(script.utf8), to: "counter.py")
        let session = ValidateHarnessTests.session(
            command: "exec python3 -u \(impl)", timeoutSeconds: 10, handshakeSeconds: 10)
        return session.run(paths: [RepositoryPaths.root + "/Vectors/captures/fixtures.json"])
    }

    @Test func aCaptureWithNoDecodedTypeIsJudgedOnTheRecordCountsGiven() {
        let o = Self.run(hello: #", "records": ["read"]"#, reply: #"{"beacons": [], "records": {"read": 10}}"#)
        let hci = o.results.filter { $0.id.hasPrefix("capture/hci/") }
        let air = o.results.filter { $0.id.hasPrefix("capture/air/") }
        #expect(hci.count == 8 && hci.allSatisfy { $0.status == .pass }, "\(ValidateHarnessTests.verdicts(o))")
        #expect(air.count == 3 && air.allSatisfy { $0.status == .fail })
        #expect(air.first?.message == "records.read: expected 6, got 10")
        #expect(o.implementation?.coverage.recordCounts == ["read"])
    }

    @Test func countsNotDeclaredAreNotCompared() {
        // decoded, ignored and malformed are wrong for every vector, but only `read` is declared.
        let reply = #"{"beacons": [], "records": {"read": 10, "decoded": 0, "ignored": 0, "malformed": 9}}"#
        let o = Self.run(hello: #", "records": ["read"]"#, reply: reply)
        #expect(o.results.filter { $0.id.hasPrefix("capture/hci/") }.allSatisfy { $0.status == .pass })
        let all = Self.run(hello: "", reply: reply)
        #expect(all.results.allSatisfy { $0.status == .fail }, "\(ValidateHarnessTests.verdicts(all))")
    }

    @Test func withoutRecordCountsACaptureOfUndecodedTypesIsSkipped() {
        let o = Self.run(hello: "", reply: #"{"beacons": []}"#)
        #expect(o.results.count == 11 && o.results.allSatisfy { $0.status == .skipped })
        #expect(o.results.first?.message.contains("are of types the implementation does not decode") == true)
    }

    @Test func aRecordsKeyOfTheWrongShapeIsAFailedStart() {
        let o = Self.run(hello: #", "records": ["read", "beacons"]"#, reply: #"{"beacons": []}"#)
        #expect(o.results.allSatisfy { $0.status == .error })
        #expect(o.results.first?.message.contains("\"records\" must be a non-empty array") == true)
    }
}
