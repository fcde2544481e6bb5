import ArgumentParser

struct EID: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eid",
        abstract: "Eddystone-EID: compute EIDs, resolve an observed EID, derive identity keys.",
        discussion: """
            Keys and EIDs are hex, keys in the byte order of the Eddystone configuration service \
            (X25519 keys little-endian, as RFC 7748 writes them). Output is one JSON object per line, \
            keys sorted. Decoding captures with EIDs resolved and eTLM decrypted is \
            `nearby-conformance decode --registry FILE`. Spec: docs/spec/eddystone-crypto.md. \
            Exit status 1 on bad input (a key or EID that is not hex of its length, an unreadable \
            registry), 64 on a usage error (a missing option, a value out of its range).
            """,
        subcommands: [EIDCompute.self, EIDResolve.self, EIDKeys.self])
}
