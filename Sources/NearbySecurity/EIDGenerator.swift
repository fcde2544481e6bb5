/// Eddystone-EID computation (docs/spec/eddystone-crypto.md, EID-CRYPTO-1 to EID-CRYPTO-3),
/// for a beacon's identity key and rotation exponent K (a new EID every 2^K seconds of the
/// beacon's 32-bit seconds counter T):
///
///     TK  = AES128(IK,  00×11 ‖ FF ‖ 00 00 ‖ (T >> 16) as uint16 BE)
///     EID = AES128(TK,  00×11 ‖ K ‖ (T with the low K bits cleared) as uint32 BE)[0..<8]
///
/// The temporary key changes every 65,536 s (with the top 16 bits of T), the EID every
/// 2^K s; both are pure functions of (IK, K, T).
public struct EIDGenerator: Sendable {
    public let identityKey: AES128
    /// The rotation exponent K, 0…15.
    public let exponent: UInt8

    /// - Throws: `keyLength` unless the identity key has 16 bytes (EID-CRYPTO-6);
    ///   `exponentRange` unless 0 ≤ K ≤ 15 (EID-CRYPTO-5).
    public init(identityKey: [UInt8], exponent: Int) throws(SecurityError) {
        guard (0...15).contains(exponent) else {
            throw SecurityError(
                .exponentRange, "a rotation exponent is 0…15 (an EID every 2^K s, at most 9.1 hours), found \(exponent)"
            )
        }
        self.identityKey = try AES128(identityKey)
        self.exponent = UInt8(exponent)
    }

    /// The rotation period, 2^K seconds.
    public var periodSeconds: UInt32 { 1 << UInt32(exponent) }

    /// The start of the rotation period holding beacon time `t`: `t` with the low K bits cleared.
    public func periodStart(_ t: UInt32) -> UInt32 { t & ~(periodSeconds - 1) }

    /// The temporary key for beacon time `t` (valid for the 65,536 s sharing `t >> 16`;
    /// EID-CRYPTO-2).
    public func temporaryKey(at t: UInt32) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 16)
        block[11] = 0xFF
        block[14] = UInt8(truncatingIfNeeded: t >> 24)
        block[15] = UInt8(truncatingIfNeeded: t >> 16)
        return identityKey.encrypt(block: block)
    }

    /// The EID broadcast at beacon time `t`.
    public func eid(at t: UInt32) -> [UInt8] {
        // Cannot fail: a temporary key is an AES block, 16 bytes.
        eid(at: t, temporaryKey: try! AES128(temporaryKey(at: t)))
    }

    /// The EID at beacon time `t` with its temporary key already computed (it must be the one
    /// for `t >> 16`; `EIDResolver` caches them): EID-CRYPTO-3, with EID-CRYPTO-4's 32-bit
    /// arithmetic.
    public func eid(at t: UInt32, temporaryKey: AES128) -> [UInt8] {
        let start = periodStart(t)
        var block = [UInt8](repeating: 0, count: 16)
        block[11] = exponent
        block[12] = UInt8(truncatingIfNeeded: start >> 24)
        block[13] = UInt8(truncatingIfNeeded: start >> 16)
        block[14] = UInt8(truncatingIfNeeded: start >> 8)
        block[15] = UInt8(truncatingIfNeeded: start)
        return Array(temporaryKey.encrypt(block: block)[0..<8])
    }
}
