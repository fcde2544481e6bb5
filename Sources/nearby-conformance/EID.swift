import ArgumentParser
import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySecurity

struct EID: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eid",
        abstract: "Eddystone-EID: compute EIDs, resolve an observed EID, derive identity keys.",
        discussion: """
        Keys and EIDs are hex, keys in the byte order of the Eddystone configuration service \
        (X25519 keys little-endian, as RFC 7748 writes them). Output is one JSON object per line, \
        keys sorted. Decoding captures with EIDs resolved and eTLM decrypted is \
        `nearby-conformance decode --registry FILE`. Spec: docs/eddystone-security.md. \
        Exit status 1 on bad input (a key or EID that is not hex of its length, an unreadable \
        registry), 64 on a usage error (a missing option, a value out of its range).
        """,
        subcommands: [EIDCompute.self, EIDResolve.self, EIDKeys.self])
}

/// Reads a hex option, naming it in the error: a key or EID that is not hex of its length is
/// bad input (exit status 1), not a usage error.
func hexOption(_ text: String, _ name: String, lengths: [Int]) throws -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        printError("error: \(name): \"\(text)\" is not hex (an even number of 0-9 a-f digits).")
        throw ExitCode(1)
    }
    guard lengths.contains(bytes.count) else {
        printError("error: \(name): \(bytes.count) bytes; expected \(lengths.map(String.init).joined(separator: " or ")).")
        throw ExitCode(1)
    }
    return bytes
}

struct EIDCompute: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compute",
        abstract: "The EIDs of an identity key over a range of beacon times.",
        discussion: """
        One line per rotation period that meets [--from, --to]: {"beaconTime" (the period's \
        start), "eid", "temporaryKey"}. Beacon time is the beacon's 32-bit seconds counter. \
        At most 100000 lines.
        """)

    @Option(help: "Identity key, 16 bytes hex.")
    var identityKey: String

    // A negative value is read as the value (then refused with the allowed range), not as an option.
    @Option(parsing: .unconditional, help: "Rotation exponent K, 0…15 (a new EID every 2^K s).")
    var exponent: Int

    @Option(help: "First beacon time, seconds (0…4294967295).")
    var from: UInt32 = 0

    @Option(help: "Last beacon time, seconds (default: --from).")
    var to: UInt32?

    func validate() throws {
        guard (0...15).contains(exponent) else { throw ValidationError("--exponent: a rotation exponent is 0…15, found \(exponent).") }
        if let to, to < from { throw ValidationError("--to must not be earlier than --from.") }
        let periods = (UInt64(to ?? from) >> UInt64(exponent)) - (UInt64(from) >> UInt64(exponent)) + 1
        if periods > 100_000 { throw ValidationError("the range spans \(periods) periods; at most 100000 lines are printed.") }
    }

    func run() throws {
        let g = try EIDGenerator(identityKey: hexOption(identityKey, "--identity-key", lengths: [16]), exponent: exponent)
        var t = UInt64(g.periodStart(from))
        let last = UInt64(to ?? from)
        while t <= last {
            let time = UInt32(t)
            print(JSONValue.object(["beaconTime": .int(time), "eid": .string(Hex.encode(g.eid(at: time))),
                                    "temporaryKey": .string(Hex.encode(g.temporaryKey(at: time)))]).serialized)
            t += UInt64(g.periodSeconds)
        }
    }
}

struct EIDResolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "The registered beacons that broadcast an EID at a time.",
        discussion: """
        The registry is a registry file (docs/scenario-format.md, "Registry") with \
        EDDYSTONE_EID beacons. --time is in the registry's time base: registrations given as \
        {"unixSeconds"} are placed with scenario time 0 at the Unix epoch, so give Unix seconds \
        for them. One line per matching beacon, best first: {"beaconName", "beaconIndex", \
        "periodStart", "periodOffset", "windowPeriods", "attachments"}. Exit status 0 when \
        at least one beacon matches, 2 when none does, 1 on bad input.
        """)

    @Option(help: "Registry file.")
    var registry: String

    @Option(help: "The observed EID, 8 bytes hex.")
    var eid: String

    @Option(help: "When it was observed, seconds.")
    var time: Double

    @Option(help: "Clock drift allowed, ppm of the time since registration.")
    var driftPpm: Double = 150

    @Option(help: "Rotation periods searched beyond the drift allowance, each side.")
    var extraPeriods: Int = 1

    func validate() throws {
        guard time.isFinite, abs(time) < 1e13 else { throw ValidationError("--time must be a finite number of seconds.") }
        guard driftPpm >= 0, driftPpm <= 1_000_000 else { throw ValidationError("--drift-ppm must be 0…1000000.") }
        guard (0...65_536).contains(extraPeriods) else { throw ValidationError("--extra-periods must be 0…65536.") }
    }

    func run() throws {
        let observed = try hexOption(eid, "--eid", lengths: [8])
        let r: Registry
        do {
            r = try Scenario.loadRegistry(registry)
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        let eidBeacons = r.beacons.indices.filter { r.beacons[$0].ephemeralID != nil }
        if eidBeacons.isEmpty { printError("warning: \(registry) has no EDDYSTONE_EID beacon") }
        let resolver = EIDResolver(registrations: eidBeacons.map { r.beacons[$0].ephemeralID!.resolverRegistration(originUnixMicros: 0) },
                                   driftPPM: driftPpm, extraPeriods: extraPeriods)
        let micros = Int64((time * 1e6).rounded())
        let matches = resolver.resolve(eid: observed, atMicros: micros)
        for m in matches {
            let b = r.beacons[eidBeacons[m.beacon]]
            print(JSONValue.object([
                "beaconName": .string(b.beaconName), "beaconIndex": .int(eidBeacons[m.beacon]),
                "periodStart": .int(m.periodStart), "periodOffset": .int(m.periodOffset),
                "windowPeriods": .int(resolver.windowPeriods(beacon: m.beacon, atMicros: micros)),
                "attachments": .array(b.attachments.map { .object(["namespacedType": .string($0.namespace + "/" + $0.type), "data": .string(Base64.encode($0.content))]) }),
            ]).serialized)
        }
        if matches.isEmpty {
            printError("no registered beacon broadcast \(eid) at \(time) s within its window")
            throw ExitCode(2)
        }
    }
}

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
        case [true, true, false, false], [false, false, true, true], [true, false, false, false], [false, false, true, false]: break
        default:
            throw ValidationError("give --resolver-private with --beacon-public, or --beacon-private with --resolver-public, or one private key alone.")
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
                    let shared = try IdentityKeyDerivation.sharedSecret(privateKey: priv, peerPublicKey: bPub)
                    o["beaconPublicKey"] = .string(bp.lowercased())
                    o["sharedSecret"] = .string(Hex.encode(shared))
                    o["identityKey"] = .string(Hex.encode(try IdentityKeyDerivation.identityKey(sharedSecret: shared, resolverPublicKey: rPub, beaconPublicKey: bPub)))
                }
            } else if let bp = beaconPrivate {
                let priv = try hexOption(bp, "--beacon-private", lengths: [32])
                let bPub = try IdentityKeyDerivation.publicKey(privateKey: priv)
                o["beaconPublicKey"] = .string(Hex.encode(bPub))
                if let rp = resolverPublic {
                    let rPub = try hexOption(rp, "--resolver-public", lengths: [32])
                    let shared = try IdentityKeyDerivation.sharedSecret(privateKey: priv, peerPublicKey: rPub)
                    o["resolverPublicKey"] = .string(rp.lowercased())
                    o["sharedSecret"] = .string(Hex.encode(shared))
                    o["identityKey"] = .string(Hex.encode(try IdentityKeyDerivation.identityKey(sharedSecret: shared, resolverPublicKey: rPub, beaconPublicKey: bPub)))
                }
            }
            print(JSONValue.object(o).serialized)
        } catch let error as SecurityError {
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }
}

func printError(_ line: String) {
    var stderr = StandardError()
    print(line, to: &stderr)
}
