import NearbyBytes
import NearbySecurity
import Testing

/// EID computation (EID-CRYPTO-1 to EID-CRYPTO-6) against the published vectors of
/// RadiusNetworks' ephemeral_calc (`spec/encryptor_spec.rb`) and derived ones, computed by an
/// independent Python implementation.
@Suite struct EIDGeneratorTests {
    static let ik = Hex.decode("0102030405060708090a111213141516")!
    static func gen(_ k: Int, _ key: [UInt8] = ik) -> EIDGenerator { try! EIDGenerator(identityKey: key, exponent: k) }

    // EID-CRYPTO-2, EID-CRYPTO-3.
    @Test func publishedVectorsForExponent10() {
        // ephemeral_calc: beacon time 0, and about 2000 s (period 1024…2047).
        #expect(Hex.encode(Self.gen(10).eid(at: 0)) == "a9b76a71c5f89290")
        #expect(Hex.encode(Self.gen(10).eid(at: 2000)) == "4144413e45fefa58")
    }

    // EID-CRYPTO-3.
    @Test(arguments: [
        (UInt32(1024), "4144413e45fefa58"), (2047, "4144413e45fefa58"), (2048, "abf8b049c8a00d96"),
        (65280, "a2a2bd394ff76ef2"), (65536, "396973b40660265b"), (0x1234_5678, "be91854f43822ad0"),
    ])
    func derivedVectorsForExponent10(time: UInt32, eid: String) {
        #expect(Hex.encode(Self.gen(10).eid(at: time)) == eid)
    }

    // EID-CRYPTO-2.
    @Test func temporaryKeyChangesAtTheRolloverOf65536Seconds() {
        let g = Self.gen(10)
        #expect(Hex.encode(g.temporaryKey(at: 0)) == "6f291c5c48264b8a0b38a19e7fed73cc")
        #expect(Hex.encode(g.temporaryKey(at: 65535)) == "6f291c5c48264b8a0b38a19e7fed73cc")
        #expect(Hex.encode(g.temporaryKey(at: 65536)) == "1ed0b977c6c388fa494ec4482123afc7")
        #expect(Hex.encode(g.temporaryKey(at: 131071)) == "1ed0b977c6c388fa494ec4482123afc7")
        #expect(g.temporaryKey(at: 131072) != g.temporaryKey(at: 131071))
    }

    // EID-CRYPTO-2, EID-CRYPTO-3 across the temporary key's change.
    @Test(arguments: [
        (UInt32(65279), "a9d9a083c9f7afa1"), (65280, "ffd60ff1503749a1"), (65535, "ffd60ff1503749a1"),
        (65536, "f68573455a2b004e"),
    ])
    func exponent8AcrossTheRollover(time: UInt32, eid: String) {
        #expect(Hex.encode(Self.gen(8).eid(at: time)) == eid)
    }

    // EID-CRYPTO-3.
    @Test(arguments: [
        (UInt32(0), "326624ee16c9cc77"), (4096, "8f56056bce87688d"), (8192, "8a4afe8235cc5b64"),
        (12288, "efbdd500498217fd"), (16384, "28d4edbb64def2b8"),
    ])
    func exponent12SeriesForTheReadmeKey(time: UInt32, eid: String) {
        let g = Self.gen(12, Hex.decode("553c66da1485e9f78849de00f2cb178e")!)
        #expect(Hex.encode(g.eid(at: time)) == eid)
        #expect(g.eid(at: time + 4095) == g.eid(at: time), "one EID for the whole 4096 s period")
    }

    // EID-CRYPTO-1, EID-CRYPTO-3.
    @Test func everyExponentRotatesAtItsPeriod() {
        for k in 0...15 {
            let g = Self.gen(k)
            let p = UInt32(1) << UInt32(k)
            let t: UInt32 = 0x0001_0000 + 3 * p  // a period start for every K ≤ 16
            #expect(g.eid(at: t) == g.eid(at: t + p - 1), "K = \(k): constant within a period")
            #expect(g.eid(at: t) != g.eid(at: t + p), "K = \(k): a new EID each period")
            #expect(g.periodStart(t + p - 1) == t)
        }
    }

    // EID-CRYPTO-4.
    @Test func theLastSecondOfThe32BitClockComputes() {
        let g = Self.gen(15)
        #expect(g.periodStart(.max) == 0xFFFF_8000)
        #expect(g.eid(at: .max) == g.eid(at: 0xFFFF_8000))
        #expect(g.eid(at: .max) != g.eid(at: 0))
    }

    // EID-CRYPTO-5, EID-CRYPTO-6.
    @Test func badKeysAndExponentsAreRefusedWithTheReason() {
        #expect(
            throws: SecurityError(
                .exponentRange, "a rotation exponent is 0…15 (an EID every 2^K s, at most 9.1 hours), found 16")
        ) {
            try EIDGenerator(identityKey: Self.ik, exponent: 16)
        }
        #expect(throws: SecurityError.self) { try EIDGenerator(identityKey: Self.ik, exponent: -1) }
        #expect(throws: SecurityError(.keyLength, "an AES-128 key has 16 bytes, found 15")) {
            try EIDGenerator(identityKey: Array(Self.ik.dropLast()), exponent: 10)
        }
        #expect(throws: SecurityError(.keyLength, "an AES-128 key has 16 bytes, found 32")) {
            try EIDGenerator(identityKey: Self.ik + Self.ik, exponent: 10)
        }
    }
}
