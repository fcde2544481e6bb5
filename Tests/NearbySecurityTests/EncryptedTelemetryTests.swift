import NearbyBytes
import NearbyFormats
import NearbySecurity
import NearbySynthesis
import NearbyTestSupport
import Testing

/// eTLM decryption and encryption (ETLM-CRYPTO-) against the frame derived from the debug
/// inputs of Nordic's Eddystone firmware (IK 589417b0…, nonce 00010000 ‖ f683, plain TLM
/// 00001c40 00000048 00000073), encrypted by an independent Python EAX. The vector is
/// self-consistent rather than authoritative: no published eTLM vector exists.
@Suite struct EncryptedTelemetryTests {
    static let ik = Hex.decode("589417b0324b1b71d7a6751852867ae8")!
    static let frame18 = Hex.decode("2001d5d89979ae79ebee4e385fa5f6830efb")!
    static let plain = EddystoneTLM(batteryRaw: 0, temperatureRaw: 0x1c40, advertisingCount: 0x48, uptimeTenths: 0x73)
    static func gen(_ k: Int = 10) -> EIDGenerator { try! EIDGenerator(identityKey: ik, exponent: k) }

    // ETLM-CRYPTO-1, ETLM-CRYPTO-2, ETLM-CRYPTO-3, ETLM-CRYPTO-6.
    @Test func nordicDebugFrameDecryptsToItsTelemetry() throws {
        let tlm = try EncryptedTelemetry.decrypt(
            try EddystoneEncryptedTLM(serviceData: Self.frame18[...]), with: Self.gen(), beaconTime: 65536)
        #expect(tlm == Self.plain)
        #expect(tlm.temperatureCelsius == 28.25 && tlm.batteryMillivolts == nil && tlm.uptimeTenths == 115)
    }

    // ETLM-CRYPTO-2.
    @Test func anySecondOfTheRotationPeriodGivesTheSameNonce() throws {
        let frame = try EddystoneEncryptedTLM(serviceData: Self.frame18[...])
        #expect(try EncryptedTelemetry.decrypt(frame, with: Self.gen(), beaconTime: 65536 + 1023) == Self.plain)
        #expect(throws: SecurityError.self, "the next period's nonce differs") {
            try EncryptedTelemetry.decrypt(frame, with: Self.gen(), beaconTime: 65536 + 1024)
        }
    }

    // ETLM-CRYPTO-2, ETLM-CRYPTO-6: a search over beacon times finds the period of the
    // frame's nonce (65,536 ÷ 1,024 = period 64) wherever it stands among the times tried,
    // and gives its period start; none when no time tried is in that period.
    @Test func aSearchOverBeaconTimesFindsThePeriodOfTheNonce() throws {
        let frame = try EddystoneEncryptedTLM(serviceData: Self.frame18[...])
        let times: [UInt32] = [62 * 1024, 63 * 1024 + 5, 65536 + 700, 65 * 1024]
        let found = try #require(EncryptedTelemetry.search(frame, with: Self.gen(), beaconTimes: times))
        #expect(found.periodStart == 65536 && found.tlm == Self.plain)
        #expect(EncryptedTelemetry.search(frame, with: Self.gen(), beaconTimes: [63 * 1024, 65 * 1024]) == nil)
        #expect(
            EncryptedTelemetry.search(frame, with: Self.gen(9), beaconTimes: [65536 + 700]) == nil,
            "under K = 9 that second is in the period that starts at 66,048")
    }

    // ETLM-CRYPTO-7.
    @Test func nordics19ByteFrameDecryptsToo() throws {
        let frame = try EddystoneEncryptedTLM(serviceData: (Self.frame18 + [0])[...])
        #expect(frame.nordicPadding == 0)
        #expect(try EncryptedTelemetry.decrypt(frame, with: Self.gen(), beaconTime: 65600) == Self.plain)
    }

    // ETLM-CRYPTO-1, ETLM-CRYPTO-3.
    @Test func encryptionWritesTheDerivedFrame() throws {
        #expect(
            try EncryptedTelemetry.encrypt(Self.plain, with: Self.gen(), beaconTime: 65536, salt: [0xf6, 0x83])
                == Self.frame18)
        #expect(
            try EncryptedTelemetry.encrypt(
                Self.plain, with: Self.gen(), beaconTime: 65536, salt: [0xf6, 0x83], nordicPadding: true) == Self
                .frame18 + [0])
    }

    // ETLM-CRYPTO-5.
    @Test func aWrongMICIsReportedWithBothValuesAndTheNonce() throws {
        var bytes = Self.frame18
        bytes[17] ^= 0x01
        let frame = try EddystoneEncryptedTLM(serviceData: bytes[...])
        #expect(
            throws: SecurityError(
                .micMismatch,
                "eTLM MIC 0efa does not match 0efb computed with this identity key and nonce 00010000f683 (beacon "
                    + "time 65536, K = 10)"
            )
        ) {
            try EncryptedTelemetry.decrypt(frame, with: Self.gen(), beaconTime: 65536)
        }
    }

    // ETLM-CRYPTO-5.
    @Test func aCorruptedCiphertextOrAnotherKeyFailsTheMIC() throws {
        var bytes = Self.frame18
        bytes[5] ^= 0x10
        #expect(throws: SecurityError.self) {
            try EncryptedTelemetry.decrypt(
                try EddystoneEncryptedTLM(serviceData: bytes[...]), with: Self.gen(), beaconTime: 65536)
        }
        let other = try EIDGenerator(identityKey: [UInt8](repeating: 1, count: 16), exponent: 10)
        #expect(throws: SecurityError.self) {
            try EncryptedTelemetry.decrypt(
                try EddystoneEncryptedTLM(serviceData: Self.frame18[...]), with: other, beaconTime: 65536)
        }
    }

    // ETLM-CRYPTO-3, ETLM-CRYPTO-6.
    @Test func roundTripForEveryExponentAndRandomTelemetry() throws {
        var rng = SeededGenerator(seed: 7)
        for k in 0...15 {
            let tlm = EddystoneTLM(
                batteryRaw: UInt16(truncatingIfNeeded: rng.next()),
                temperatureRaw: Int16(truncatingIfNeeded: rng.next()),
                advertisingCount: UInt32(truncatingIfNeeded: rng.next()),
                uptimeTenths: UInt32(truncatingIfNeeded: rng.next()))
            let t = UInt32(truncatingIfNeeded: rng.next())
            let salt = [UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next())]
            let sd = try EncryptedTelemetry.encrypt(tlm, with: Self.gen(k), beaconTime: t, salt: salt)
            #expect(sd.count == 18)
            #expect(
                try EncryptedTelemetry.decrypt(
                    try EddystoneEncryptedTLM(serviceData: sd[...]), with: Self.gen(k), beaconTime: t) == tlm)
        }
    }

    // ETLM-CRYPTO-9.
    @Test func aSaltOfTheWrongLengthIsRefused() {
        #expect(throws: SecurityError(.keyLength, "an eTLM salt has 2 bytes, found 3")) {
            try EncryptedTelemetry.encrypt(Self.plain, with: Self.gen(), beaconTime: 0, salt: [1, 2, 3])
        }
    }
}
