import ArgumentParser
import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySecurity

struct EIDKeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Derive the identity key from key pairs (X25519 + HKDF-SHA256), or a public key from a private one.",
        discussion: """
            Give one private key and the other side's public key: --resolver-private with \
            --beacon-public (the resolver's side) or --beacon-private with --resolver-public (the \
            beacon's side). Prints {"beaconPublicKey", "resolverPublicKey", "sharedSecret", \
            "identityKey"}. With a private key alone, prints its public key. All keys are 32 bytes \
            hex, little-endian (RFC 7748); the identity key is 16 bytes.
            """)

    @Option(help: "The resolver's X25519 private key.")
    var resolverPrivate: String?
    @Option(help: "The beacon's X25519 public key.")
    var beaconPublic: String?
    @Option(help: "The beacon's X25519 private key.")
    var beaconPrivate: String?
    @Option(help: "The resolver's X25519 public key.")
    var resolverPublic: String?

    func validate() throws {
        let given = [resolverPrivate, beaconPublic, beaconPrivate, resolverPublic].map { $0 != nil }
        switch given {
        case [true, true, false, false], [false, false, true, true], [true, false, false, false],
            [false, false, true, false]:
            break
        default:
            throw ValidationError(
                "give --resolver-private with --beacon-public, or --beacon-private with --resolver-public, or one "
                    + "private key alone."
            )
        }
    }

    func run() throws {
        do {
            var o: [String: JSONValue] = [:]
            if let rp = resolverPrivate {
                let priv = try hexOption(rp, "--resolver-private", lengths: [32])
                let rPub = try IdentityKeyDerivation.publicKey(privateKey: priv)
                o["resolverPublicKey"] = .string(Hex.encode(rPub))
                if let bp = beaconPublic {
                    let bPub = try hexOption(bp, "--beacon-public", lengths: [32])
                    o["beaconPublicKey"] = .string(bp.lowercased())
                    o.merge(try Self.agreement(priv, bPub, resolverPublic: rPub, beaconPublic: bPub)) { $1 }
                }
            } else if let bp = beaconPrivate {
                let priv = try hexOption(bp, "--beacon-private", lengths: [32])
                let bPub = try IdentityKeyDerivation.publicKey(privateKey: priv)
                o["beaconPublicKey"] = .string(Hex.encode(bPub))
                if let rp = resolverPublic {
                    let rPub = try hexOption(rp, "--resolver-public", lengths: [32])
                    o["resolverPublicKey"] = .string(rp.lowercased())
                    o.merge(try Self.agreement(priv, rPub, resolverPublic: rPub, beaconPublic: bPub)) { $1 }
                }
            }
            print(JSONValue.object(o).serialized)
        } catch let error as SecurityError {
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// The X25519 shared secret of `privateKey` and `peer`, and the identity key HKDF derives
    /// from it and the two public keys (docs/spec/eddystone-crypto.md), as hex fields.
    static func agreement(
        _ privateKey: [UInt8], _ peer: [UInt8], resolverPublic: [UInt8], beaconPublic: [UInt8]
    ) throws
        -> [String: JSONValue]
    {
        let shared = try IdentityKeyDerivation.sharedSecret(privateKey: privateKey, peerPublicKey: peer)
        let key = try IdentityKeyDerivation.identityKey(
            sharedSecret: shared, resolverPublicKey: resolverPublic, beaconPublicKey: beaconPublic)
        return ["sharedSecret": .string(Hex.encode(shared)), "identityKey": .string(Hex.encode(key))]
    }
}
