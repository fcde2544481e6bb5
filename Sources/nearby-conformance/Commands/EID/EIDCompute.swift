import ArgumentParser
import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySecurity

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
        guard (0...15).contains(exponent) else {
            throw ValidationError("--exponent: a rotation exponent is 0…15, found \(exponent).")
        }
        if let to, to < from { throw ValidationError("--to must not be earlier than --from.") }
        let periods = (UInt64(to ?? from) >> UInt64(exponent)) - (UInt64(from) >> UInt64(exponent)) + 1
        if periods > 100_000 {
            throw ValidationError("the range spans \(periods) periods; at most 100000 lines are printed.")
        }
    }

    func run() throws {
        let g = try EIDGenerator(
            identityKey: hexOption(identityKey, "--identity-key", lengths: [16]), exponent: exponent)
        var t = UInt64(g.periodStart(from))
        let last = UInt64(to ?? from)
        while t <= last {
            let time = UInt32(t)
            print(
                JSONValue.object([
                    "beaconTime": .int(time), "eid": .string(Hex.encode(g.eid(at: time))),
                    "temporaryKey": .string(Hex.encode(g.temporaryKey(at: time))),
                ]).serialized)
            t += UInt64(g.periodSeconds)
        }
    }
}
