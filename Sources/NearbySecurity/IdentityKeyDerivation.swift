import Crypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The EID identity key agreed between a beacon and a resolver by ECDH on Curve25519
/// (docs/spec/eddystone-crypto.md, KEYS-1 to KEYS-5):
///
///     shared = X25519(beacon private, resolver public) = X25519(resolver private, beacon public)
///     IK     = HKDF-SHA256(IKM = shared, salt = resolver public ‖ beacon public, info = "")[0..<16]
///
/// Keys are the 32-byte little-endian arrays of RFC 7748, the byte order the Eddystone
/// configuration service reads and writes (characteristic 8, Public ECDH Key; KEYS-4); hex
/// in and out is in that order. An all-zero shared secret (a low-order public key) is
/// refused, as the specification requires (KEYS-2).
public enum IdentityKeyDerivation {
    /// The public key of a 32-byte X25519 private key.
    public static func publicKey(privateKey: [UInt8]) throws(SecurityError) -> [UInt8] {
        let key = try Self.privateKey(privateKey)
        return Array(key.publicKey.rawRepresentation)
    }

    /// The shared secret X25519(`privateKey`, `peerPublicKey`) (KEYS-1).
    public static func sharedSecret(privateKey: [UInt8], peerPublicKey: [UInt8]) throws(SecurityError) -> [UInt8] {
        let key = try Self.privateKey(privateKey)
        guard peerPublicKey.count == 32 else {
            throw SecurityError(.keyLength, "an X25519 public key has 32 bytes, found \(peerPublicKey.count)")
        }
        let shared: [UInt8]
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: peerPublicKey)
            shared = try key.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
        } catch {
            // BoringSSL refuses a low-order point by failing X25519 itself (KEYS-2).
            throw SecurityError(
                .zeroSharedSecret, "X25519 with this public key gives no shared secret (a low-order point): \(error)")
        }
        guard shared.contains(where: { $0 != 0 }) else {
            throw SecurityError(
                .zeroSharedSecret, "X25519 with this public key gives the all-zero shared secret (a low-order point)")
        }
        return shared
    }

    /// The identity key from the shared secret and both public keys (KEYS-3; KEYS-5 for
    /// lengths).
    public static func identityKey(
        sharedSecret: [UInt8], resolverPublicKey: [UInt8], beaconPublicKey: [UInt8]
    ) throws(SecurityError) -> [UInt8] {
        for (name, k) in [
            ("shared secret", sharedSecret), ("resolver public key", resolverPublicKey),
            ("beacon public key", beaconPublicKey),
        ] where k.count != 32 {
            throw SecurityError(.keyLength, "the \(name) has 32 bytes, found \(k.count)")
        }
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: sharedSecret),
            salt: resolverPublicKey + beaconPublicKey,
            info: [UInt8](), outputByteCount: 32)
        return key.withUnsafeBytes { Array($0.prefix(16)) }
    }

    /// The resolver's side: its private key and the beacon's public key.
    public static func identityKey(
        resolverPrivateKey: [UInt8], beaconPublicKey: [UInt8]
    ) throws(SecurityError) -> [UInt8] {
        let shared = try sharedSecret(privateKey: resolverPrivateKey, peerPublicKey: beaconPublicKey)
        return try identityKey(
            sharedSecret: shared, resolverPublicKey: publicKey(privateKey: resolverPrivateKey),
            beaconPublicKey: beaconPublicKey)
    }

    /// The beacon's side: its private key and the resolver's public key.
    public static func identityKey(
        beaconPrivateKey: [UInt8], resolverPublicKey: [UInt8]
    ) throws(SecurityError) -> [UInt8] {
        let shared = try sharedSecret(privateKey: beaconPrivateKey, peerPublicKey: resolverPublicKey)
        return try identityKey(
            sharedSecret: shared, resolverPublicKey: resolverPublicKey,
            beaconPublicKey: publicKey(privateKey: beaconPrivateKey))
    }

    static func privateKey(_ bytes: [UInt8]) throws(SecurityError) -> Curve25519.KeyAgreement.PrivateKey {
        guard bytes.count == 32 else {
            throw SecurityError(.keyLength, "an X25519 private key has 32 bytes, found \(bytes.count)")
        }
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes)
        } catch {
            throw SecurityError(.keyLength, "X25519 refuses this private key: \(error)")
        }
    }
}
