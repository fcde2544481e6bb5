import NearbyTestSupport
import Testing

/// `eid compute | resolve | keys` and `decode --registry` as a user runs them: outputs against
/// the published values of ephemeral_calc (EID-CRYPTO-3, KEYS-3), exit statuses, and errors
/// naming what is wrong.
@Suite struct EIDCommandTests {
    static let ik = "0102030405060708090a111213141516"

    // EID-CRYPTO-3.
    @Test func computePrintsOneLinePerPeriodWithThePublishedEIDs() throws {
        let r = try CommandLineTool.run([
            "eid", "compute", "--identity-key", Self.ik, "--exponent", "10", "--from", "1000", "--to", "2048",
        ])
        #expect(r.status == 0)
        #expect(
            r.stdoutLines == [
                #"{"beaconTime":0,"eid":"a9b76a71c5f89290","temporaryKey":"6f291c5c48264b8a0b38a19e7fed73cc"}"#,
                #"{"beaconTime":1024,"eid":"4144413e45fefa58","temporaryKey":"6f291c5c48264b8a0b38a19e7fed73cc"}"#,
                #"{"beaconTime":2048,"eid":"abf8b049c8a00d96","temporaryKey":"6f291c5c48264b8a0b38a19e7fed73cc"}"#,
            ])
    }

    // KEYS-1, KEYS-3, KEYS-4.
    @Test func keysDerivesThePublishedIdentityKeyFromEitherSide() throws {
        let beacon = try CommandLineTool.run([
            "eid", "keys",
            "--beacon-private", "6ea13b5ef3cc642fd6102c1d85c096b510f56efc488114a4562a987bf4525628",
            "--resolver-public", "29769a045dcb811ba3025985b9de91eb9a57dadbceb68a1e6a3c2b1af4868e1f",
        ])
        let resolver = try CommandLineTool.run([
            "eid", "keys",
            "--resolver-private", "61136adab1bf302f1c49e860196aeefd8fbaa41518b4c226372d6cc469c47278",
            "--beacon-public", "c63e6f89aab47552c8d621a59c81d0af203f6570a4bd7a267a08a17561c8bc2b",
        ])
        let expected =
            #"{"beaconPublicKey":"c63e6f89aab47552c8d621a59c81d0af203f6570a4bd7a267a08a17561c8bc2b","#
            + #""identityKey":"f40d6f18e5882260e847e99ca33ac44f","#
            + #""resolverPublicKey":"29769a045dcb811ba3025985b9de91eb9a57dadbceb68a1e6a3c2b1af4868e1f","#
            + #""sharedSecret":"690821890fffb83bb348fb620d0a10e625fe3d919b5594e7b9258d50f829b90b"}"#
        #expect(beacon.stdoutLines == [expected] && resolver.stdoutLines == [expected])
    }

    // EID-CRYPTO-8, EID-CRYPTO-10.
    @Test func resolveExitsZeroWithTheBeaconOrTwoWithout() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let registry = dir.write(
            Array(
                #"""
                {"registry": 1, "beacons": [{"advertisedId": {"type": "EDDYSTONE_EID"}, "beaconName": "beacons/desk",
                  "ephemeralIdRegistration": {"beaconIdentityKey": "AQIDBAUGBwgJChESExQVFg==",\#
                 "rotationPeriodExponent": 10,
                                              "initialClockValue": 0, "registeredAt": {"unixSeconds": 1700000000}},
                  "attachments": [{"namespacedType": "proj/desk", "data": "NDI="}]}]}
                """#.utf8), to: "reg.json")
        let hit = try CommandLineTool.run([
            "eid", "resolve", "--registry", registry, "--eid", "4144413e45fefa58", "--time", "1700001500",
        ])
        #expect(hit.status == 0)
        #expect(
            hit.stdoutLines == [
                #"{"attachments":[{"data":"NDI=","namespacedType":"proj/desk"}],"beaconIndex":0,"#
                    + #""beaconName":"beacons/desk","periodOffset":0,"periodStart":1024,"windowPeriods":2}"#
            ])
        // 100,000 s later the beacon's clock is in period 98; 1024…2047 is far outside the window.
        let miss = try CommandLineTool.run([
            "eid", "resolve", "--registry", registry, "--eid", "4144413e45fefa58", "--time", "1700101500",
        ])
        #expect(miss.status == 2 && miss.stdoutLines.isEmpty)
        #expect(miss.stderr.contains("no registered beacon broadcast 4144413e45fefa58"))
    }

    /// As `eid --help` says: bad input (a key or EID that is not hex of its length, an
    /// unreadable registry) exits 1; a usage error (a value out of its range, options that do
    /// not go together) exits 64, ArgumentParser's EX_USAGE.
    @Test(arguments: [
        (
            ["eid", "compute", "--identity-key", "0102", "--exponent", "10"], "--identity-key: 2 bytes; expected 16.",
            Int32(1)
        ),
        (
            ["eid", "compute", "--identity-key", ik, "--exponent", "16"],
            "--exponent: a rotation exponent is 0…15, found 16.", Int32(64)
        ),
        (["eid", "keys", "--beacon-private", "00"], "--beacon-private: 1 bytes; expected 32.", Int32(1)),
        (
            ["eid", "keys", "--beacon-public", String(repeating: "00", count: 32)],
            "give --resolver-private with --beacon-public", Int32(64)
        ),
        (
            ["eid", "resolve", "--registry", "/nonexistent/reg.json", "--eid", "4144413e45fefa58", "--time", "0"],
            "/nonexistent/reg.json", Int32(1)
        ),
        (
            ["eid", "resolve", "--registry", "/nonexistent/reg.json", "--eid", "zz", "--time", "0"],
            #"--eid: "zz" is not hex"#, Int32(1)
        ),
    ])
    func badInputIsAClearErrorNamingTheOption(arguments: [String], message: String, status: Int32) throws {
        let r = try CommandLineTool.run(arguments)
        #expect(r.status == status)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    // KEYS-2.
    @Test func aLowOrderPublicKeyIsRefusedByKeys() throws {
        let r = try CommandLineTool.run([
            "eid", "keys",
            "--resolver-private", "61136adab1bf302f1c49e860196aeefd8fbaa41518b4c226372d6cc469c47278",
            "--beacon-public", String(repeating: "00", count: 32),
        ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("security/zero-shared-secret"), "\(r.stderr)")
    }
}
