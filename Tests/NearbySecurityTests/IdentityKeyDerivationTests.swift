import NearbyBytes
import NearbySecurity
import Testing

/// X25519 + HKDF identity keys (KEYS-1 to KEYS-5) against the published values of
/// RadiusNetworks' ephemeral_calc (`spec/key_pair_spec.rb`).
@Suite struct IdentityKeyDerivationTests {
    static let resolverPrivate = Hex.decode("61136adab1bf302f1c49e860196aeefd8fbaa41518b4c226372d6cc469c47278")!
    static let beaconPrivate = Hex.decode("6ea13b5ef3cc642fd6102c1d85c096b510f56efc488114a4562a987bf4525628")!
    static let resolverPublic = "29769a045dcb811ba3025985b9de91eb9a57dadbceb68a1e6a3c2b1af4868e1f"
    static let beaconPublic = "c63e6f89aab47552c8d621a59c81d0af203f6570a4bd7a267a08a17561c8bc2b"

    // KEYS-1, KEYS-3, KEYS-4.
    @Test func publicKeysSharedSecretAndIdentityKeyMatchThePublishedVectors() throws {
        #expect(
            Hex.encode(try IdentityKeyDerivation.publicKey(privateKey: Self.resolverPrivate)) == Self.resolverPublic)
        #expect(Hex.encode(try IdentityKeyDerivation.publicKey(privateKey: Self.beaconPrivate)) == Self.beaconPublic)
        let shared = try IdentityKeyDerivation.sharedSecret(
            privateKey: Self.beaconPrivate, peerPublicKey: Hex.decode(Self.resolverPublic)!)
        #expect(Hex.encode(shared) == "690821890fffb83bb348fb620d0a10e625fe3d919b5594e7b9258d50f829b90b")
        #expect(
            Hex.encode(
                try IdentityKeyDerivation.identityKey(
                    beaconPrivateKey: Self.beaconPrivate, resolverPublicKey: Hex.decode(Self.resolverPublic)!))
                == "f40d6f18e5882260e847e99ca33ac44f")
    }

    // KEYS-1, KEYS-3.
    @Test func bothSidesDeriveTheSameKey() throws {
        let a = try IdentityKeyDerivation.identityKey(
            resolverPrivateKey: Self.resolverPrivate, beaconPublicKey: Hex.decode(Self.beaconPublic)!)
        let b = try IdentityKeyDerivation.identityKey(
            beaconPrivateKey: Self.beaconPrivate, resolverPublicKey: Hex.decode(Self.resolverPublic)!)
        #expect(a == b && Hex.encode(a) == "f40d6f18e5882260e847e99ca33ac44f")
    }

    // KEYS-3.
    @Test func theSaltOrderMatters() throws {
        // Swapping the public keys in the salt gives another key: the order is resolver ‖ beacon.
        let shared = try IdentityKeyDerivation.sharedSecret(
            privateKey: Self.beaconPrivate, peerPublicKey: Hex.decode(Self.resolverPublic)!)
        let swapped = try IdentityKeyDerivation.identityKey(
            sharedSecret: shared, resolverPublicKey: Hex.decode(Self.beaconPublic)!,
            beaconPublicKey: Hex.decode(Self.resolverPublic)!)
        #expect(Hex.encode(swapped) != "f40d6f18e5882260e847e99ca33ac44f")
    }

    // KEYS-2.
    @Test func aLowOrderPublicKeyGivesNoIdentityKey() {
        // The all-zero point (order 1) and the point of order 8 with u = 1 make X25519's output zero.
        for point in [[UInt8](repeating: 0, count: 32), [1] + [UInt8](repeating: 0, count: 31)] {
            let e = #expect(throws: SecurityError.self) {
                try IdentityKeyDerivation.identityKey(resolverPrivateKey: Self.resolverPrivate, beaconPublicKey: point)
            }
            #expect(e?.code == .zeroSharedSecret, "\(String(describing: e))")
        }
    }

    // KEYS-5.
    @Test func keysOfTheWrongLengthAreNamed() {
        #expect(throws: SecurityError(.keyLength, "an X25519 private key has 32 bytes, found 31")) {
            try IdentityKeyDerivation.publicKey(privateKey: Array(Self.resolverPrivate.dropLast()))
        }
        #expect(throws: SecurityError(.keyLength, "an X25519 public key has 32 bytes, found 16")) {
            try IdentityKeyDerivation.identityKey(
                resolverPrivateKey: Self.resolverPrivate, beaconPublicKey: [UInt8](repeating: 9, count: 16))
        }
    }
}
