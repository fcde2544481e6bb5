import ArgumentParser
import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySecurity

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
        guard time.isFinite, abs(time) < 1e13 else {
            throw ValidationError("--time must be a finite number of seconds.")
        }
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
        let resolver = EIDResolver(
            registrations: eidBeacons.map { r.beacons[$0].ephemeralID!.resolverRegistration(originUnixMicros: 0) },
            driftPPM: driftPpm, extraPeriods: extraPeriods)
        let micros = Int64((time * 1e6).rounded())
        let matches = resolver.resolve(eid: observed, atMicros: micros)
        for m in matches {
            let b = r.beacons[eidBeacons[m.beacon]]
            print(
                JSONValue.object([
                    "beaconName": .string(b.beaconName), "beaconIndex": .int(eidBeacons[m.beacon]),
                    "periodStart": .int(m.periodStart), "periodOffset": .int(m.periodOffset),
                    "windowPeriods": .int(resolver.windowPeriods(beacon: m.beacon, atMicros: micros)),
                    "attachments": .array(
                        b.attachments.map {
                            .object([
                                "namespacedType": .string($0.namespace + "/" + $0.type),
                                "data": .string(Base64.encode($0.content)),
                            ])
                        }),
                ]).serialized)
        }
        if matches.isEmpty {
            printError("no registered beacon broadcast \(eid) at \(time) s within its window")
            throw ExitCode(2)
        }
    }
}
