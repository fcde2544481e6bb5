import NearbyBytes
import NearbyFormats

/// Encrypted Eddystone-TLM (docs/spec/eddystone-crypto.md, ETLM-CRYPTO-): the 12 bytes
/// of a plain TLM after `20 00` (VBATT, TEMP, ADV_CNT, SEC_CNT) under AES-EAX with the
/// beacon's identity key, an empty header and a 2-byte tag (the MIC; ETLM-CRYPTO-3):
///
///     nonce (6 bytes) = (beacon time with the low K bits cleared) as uint32 BE ‖ SALT(2)
///
/// as Nordic's reference firmware computes it (`eddystone_security_tlm_to_etlm`;
/// ETLM-CRYPTO-1, ETLM-CRYPTO-2). The frame is 18 bytes by Google's specification, 19 with
/// the RFU byte Nordic's firmware appends; both are read (ETLM-CRYPTO-7), and `encrypt`
/// writes either.
public enum EncryptedTelemetry {
    /// The 6-byte EAX nonce for a beacon time and salt.
    public static func nonce(periodStart: UInt32, salt: [UInt8]) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: periodStart >> 24), UInt8(truncatingIfNeeded: periodStart >> 16),
            UInt8(truncatingIfNeeded: periodStart >> 8), UInt8(truncatingIfNeeded: periodStart),
        ] + salt
    }

    /// Decrypts an eTLM frame received at beacon time `beaconTime` (any second of the
    /// rotation period: the low K bits are cleared here).
    /// - Throws: `micMismatch` (wrong key, wrong period, or a corrupted frame: the MIC cannot
    ///   tell which; ETLM-CRYPTO-5), `keyLength`.
    public static func decrypt(
        _ frame: EddystoneEncryptedTLM, with generator: EIDGenerator, beaconTime: UInt32
    ) throws(SecurityError) -> EddystoneTLM {
        let eax = AESEAX(cipher: generator.identityKey)
        let start = generator.periodStart(beaconTime)
        let n = nonce(periodStart: start, salt: frame.salt)
        let plain: [UInt8]
        do {
            plain = try eax.open(frame.ciphertext, tag: frame.mic, nonce: n)
        } catch {
            throw SecurityError(
                .micMismatch,
                "eTLM MIC \(Hex.encode(frame.mic)) does not match "
                    + "\(Hex.encode(eax.tag(ciphertext: frame.ciphertext, nonce: n, length: 2))) computed with this "
                    + "identity key and nonce \(Hex.encode(n)) (beacon time \(start), K = \(generator.exponent))"
            )
        }
        return tlm(plain)  // ETLM-CRYPTO-6
    }

    /// The first of `beaconTimes` (each any second of its rotation period) whose nonce
    /// opens `frame` under `generator`'s identity key, with its period start and the TLM;
    /// nil when none does. The same answer as trying `decrypt` at each time in turn, with
    /// the nonce-free part of the tag computed once (ETLM-CRYPTO-4).
    public static func search(
        _ frame: EddystoneEncryptedTLM, with generator: EIDGenerator, beaconTimes: [UInt32]
    ) -> (periodStart: UInt32, tlm: EddystoneTLM)? {
        let eax = AESEAX(cipher: generator.identityKey)
        let rest = eax.nonceFreeTag(ciphertext: frame.ciphertext)
        for time in beaconTimes {
            let start = generator.periodStart(time)
            let n = nonce(periodStart: start, salt: frame.salt)
            if let plain = eax.open(frame.ciphertext, tag: frame.mic, nonce: n, nonceFreeTag: rest) {
                return (start, tlm(plain))  // ETLM-CRYPTO-6
            }
        }
        return nil
    }

    /// The service data of an eTLM frame (starting `20 01`) holding `tlm`, for the
    /// synthesizer and for tests. `nordicPadding` appends Nordic's RFU byte (19 bytes).
    public static func encrypt(
        _ tlm: EddystoneTLM, with generator: EIDGenerator, beaconTime: UInt32, salt: [UInt8],
        nordicPadding: Bool = false
    ) throws(SecurityError) -> [UInt8] {
        // ETLM-CRYPTO-9
        guard salt.count == 2 else { throw SecurityError(.keyLength, "an eTLM salt has 2 bytes, found \(salt.count)") }
        let plain =
            be16(tlm.batteryRaw) + be16(UInt16(bitPattern: tlm.temperatureRaw))
            + be32(tlm.advertisingCount) + be32(tlm.uptimeTenths)
        let sealed = AESEAX(cipher: generator.identityKey).seal(
            plain, nonce: nonce(periodStart: generator.periodStart(beaconTime), salt: salt), tagLength: 2)
        return [0x20, 0x01] + sealed.ciphertext + salt + sealed.tag + (nordicPadding ? [0x00] : [])
    }

    static func tlm(_ p: [UInt8]) -> EddystoneTLM {
        EddystoneTLM(
            batteryRaw: UInt16(p[0]) << 8 | UInt16(p[1]),
            temperatureRaw: Int16(bitPattern: UInt16(p[2]) << 8 | UInt16(p[3])),
            advertisingCount: UInt32(p[4]) << 24 | UInt32(p[5]) << 16 | UInt32(p[6]) << 8 | UInt32(p[7]),
            uptimeTenths: UInt32(p[8]) << 24 | UInt32(p[9]) << 16 | UInt32(p[10]) << 8 | UInt32(p[11]))
    }

    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
