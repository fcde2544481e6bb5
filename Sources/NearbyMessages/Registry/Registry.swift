import NearbyBytes
import NearbySecurity

/// What the server side knows, as this project models it (ENGINE-R1, ENGINE-R2): which
/// publication each token stood for over time, and which attachments each beacon carries.
///
/// Times are microseconds in the scenario's time base; intervals are half-open
/// `[from, until)`, and a missing bound is unbounded.
public struct Registry: Sendable {
    /// A publication made by some other device, and the tokens that stood for it.
    public struct Publication: Hashable, Sendable {
        public var id: String
        public var message: Message
        public var fromMicros: Int64?
        public var untilMicros: Int64?
        public var tokens: [TokenAssignment]

        public init(
            id: String, message: Message, fromMicros: Int64? = nil, untilMicros: Int64? = nil, tokens: [TokenAssignment]
        ) {
            self.id = id
            self.message = message
            self.fromMicros = fromMicros
            self.untilMicros = untilMicros
            self.tokens = tokens
        }
    }

    /// One token of a publication, on some mediums, for an interval (a publication rotates
    /// its token by ending one assignment and starting another).
    public struct TokenAssignment: Hashable, Sendable {
        public var token: [UInt8]
        public var mediums: DiscoveryMediums
        public var fromMicros: Int64?
        public var untilMicros: Int64?

        public init(
            token: [UInt8], mediums: DiscoveryMediums = .default, fromMicros: Int64? = nil, untilMicros: Int64? = nil
        ) {
            self.token = token
            self.mediums = mediums
            self.fromMicros = fromMicros
            self.untilMicros = untilMicros
        }
    }

    /// A registered beacon in the shape of the Proximity Beacon API's `getforobserved` answer.
    public struct Beacon: Hashable, Sendable {
        /// The advertised ID (`AdvertisedId.type` EDDYSTONE, IBEACON, ALTBEACON; for
        /// EDDYSTONE_EID the EID at registration, which the beacon no longer sends).
        public var advertisedID: SightingIdentity
        /// `beacons/3!<hex>` (Eddystone), `beacons/1!` (iBeacon), `beacons/5!` (AltBeacon),
        /// `beacons/4!<initial EID>` (Eddystone-EID).
        public var beaconName: String
        public var attachments: [Message]
        /// For an Eddystone-EID beacon: what resolves its rotating EIDs to it.
        public var ephemeralID: EphemeralIDRegistration?

        public init(advertisedID: SightingIdentity, beaconName: String? = nil, attachments: [Message]) {
            self.advertisedID = advertisedID
            self.beaconName = beaconName ?? Self.defaultName(advertisedID)
            self.attachments = attachments
        }

        /// An Eddystone-EID beacon, known by its registration.
        public init(ephemeralID: EphemeralIDRegistration, beaconName: String? = nil, attachments: [Message]) {
            self.init(
                advertisedID: SightingIdentity(.eddystoneEID, ephemeralID.initialEID), beaconName: beaconName,
                attachments: attachments)
            self.ephemeralID = ephemeralID
        }

        /// The `beaconName` the Proximity Beacon API gives an advertised ID.
        public static func defaultName(_ id: SightingIdentity) -> String {
            let prefix =
                switch id.kind {
                case .iBeacon: "1"
                case .altBeacon: "5"
                case .eddystoneEID: "4"
                default: "3"
                }
            return "beacons/\(prefix)!" + Hex.encode(id.bytes)
        }
    }

    public private(set) var publications: [Publication]
    public private(set) var beacons: [Beacon]

    /// Every distinct message in the registry; `tokenIndex` and `beaconIndex` refer to it.
    public private(set) var messages: [Message] = []

    struct TokenEntry: Sendable {
        var from: Int64
        var until: Int64
        var mediums: DiscoveryMediums
        var message: Int32
    }
    private(set) var tokenIndex = IdentityTable<[TokenEntry]>()
    private(set) var beaconIndex = IdentityTable<[Int32]>()
    /// Eddystone-EID beacons: the resolver (its registrations in the scenario's time base),
    /// and for each of its registrations the beacon's index in `beacons` and messages.
    public private(set) var eidResolver: EIDResolver?
    private(set) var eidBeacons: [(beacon: Int, messages: [Int32])] = []
    /// The Unix time (µs) of scenario time 0 used to place EID registrations given in Unix time.
    public private(set) var originUnixMicros: Int64 = 0

    public init(publications: [Publication] = [], beacons: [Beacon] = []) {
        self.init(publications: publications, beacons: beacons, originUnixMicros: 0)
    }

    /// - Parameter originUnixMicros: the Unix time of scenario time 0, which places EID
    ///   registrations given in Unix time (`placed(originUnixMicros:)`).
    init(publications: [Publication], beacons: [Beacon], originUnixMicros: Int64) {
        self.originUnixMicros = originUnixMicros
        self.publications = publications
        self.beacons = beacons
        var ids: [Message: Int32] = [:]
        func intern(_ m: Message) -> Int32 {
            if let i = ids[m] { return i }
            let i = Int32(messages.count)
            messages.append(m)
            ids[m] = i
            return i
        }
        for p in publications {
            let m = intern(p.message)
            for t in p.tokens {
                let from = max(p.fromMicros ?? .min, t.fromMicros ?? .min)
                let until = min(p.untilMicros ?? .max, t.untilMicros ?? .max)
                guard from < until else { continue }
                tokenIndex[SightingIdentity(.token, t.token), default: []]
                    .append(TokenEntry(from: from, until: until, mediums: t.mediums, message: m))
            }
        }
        var registrations: [EIDRegistration] = []
        func add(_ attachments: [Message], to list: inout [Int32]) {
            for a in attachments {
                let m = intern(a)
                if !list.contains(m) { list.append(m) }
            }
        }
        for (index, b) in beacons.enumerated() {
            if let e = b.ephemeralID {
                registrations.append(e.resolverRegistration(originUnixMicros: originUnixMicros))
                var list: [Int32] = []
                add(b.attachments, to: &list)
                eidBeacons.append((index, list))
            } else {
                add(b.attachments, to: &beaconIndex[b.advertisedID, default: []])
            }
        }
        eidResolver = registrations.isEmpty ? nil : EIDResolver(registrations: registrations)
    }

    /// This registry with its EID registrations given in Unix time placed in the scenario's
    /// time base, scenario time 0 being `originUnixMicros` (replay knows it once the captures
    /// are read; the default is the Unix epoch, which is `decode`'s time base).
    public func placed(originUnixMicros: Int64) -> Registry {
        let dependsOnOrigin = beacons.contains {
            if case .unixMicros? = $0.ephemeralID?.registeredAt { return true }
            return false
        }
        guard dependsOnOrigin, originUnixMicros != self.originUnixMicros else { return self }
        return Registry(publications: publications, beacons: beacons, originUnixMicros: originUnixMicros)
    }

    /// This registry as seen by an observer of project `projectNamespace`: namespace "" in
    /// publications and attachments is that namespace (ENGINE-R3A), so messages
    /// that are then equal, byte for byte, are one (ENGINE-R4).
    func inProject(_ projectNamespace: String) -> Registry {
        guard !projectNamespace.isEmpty, messages.contains(where: { $0.namespace.isEmpty }) else { return self }
        func placed(_ m: Message) -> Message {
            m.namespace.isEmpty ? Message(namespace: projectNamespace, type: m.type, content: m.content) : m
        }
        let publications = publications.map { p in
            var p = p
            p.message = placed(p.message)
            return p
        }
        let beacons = beacons.map { b in
            var b = b
            b.attachments = b.attachments.map(placed)
            return b
        }
        return Registry(publications: publications, beacons: beacons, originUnixMicros: originUnixMicros)
    }

    /// The registered Eddystone-EID beacons that broadcast `eid` at `micros` (scenario time),
    /// best first (ENGINE-R2A): each with the index of the beacon in `beacons` and
    /// how the resolver matched it.
    public func resolveEID(_ eid: [UInt8], atMicros micros: Int64) -> [(beacon: Int, match: EIDResolver.Match)] {
        guard let r = eidResolver else { return [] }
        return r.resolve(eid: eid, atMicros: micros).map { (eidBeacons[$0.beacon].beacon, $0) }
    }

    /// The registry messages a sighting stands for at its time, in registry order.
    public func resolve(_ sighting: Sighting) -> [Message] {
        var out: [Message] = []
        forEachMessage(sighting) { out.append(messages[Int($0)]) }
        return out
    }

    /// Calls `body` with the index in `messages` of every registry message the sighting
    /// stands for. Allocates nothing.
    @inline(__always)
    func forEachMessage(_ sighting: Sighting, _ body: (Int32) -> Void) {
        if sighting.identity.kind == .token {
            guard let entries = tokenIndex[sighting.identity] else { return }
            let medium: DiscoveryMediums = sighting.medium == .ble ? .ble : .audio
            for e in entries
            where e.from <= sighting.timeMicros && sighting.timeMicros < e.until && e.mediums.contains(medium) {
                body(e.message)
            }
        } else if sighting.identity.kind == .eddystoneEID {
            guard let r = eidResolver else { return }
            let matches = r.resolve(eid: sighting.identity.bytes, atMicros: sighting.timeMicros)
            var done: [Int32] = []
            for match in matches {
                for m in eidBeacons[match.beacon].messages where !done.contains(m) {
                    done.append(m)
                    body(m)
                }
            }
        } else if let list = beaconIndex[sighting.identity] {
            for m in list { body(m) }
        }
    }
}
