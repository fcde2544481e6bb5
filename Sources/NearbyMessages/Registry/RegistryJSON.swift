import NearbyBytes
import NearbyJSON
import NearbySecurity

extension Registry {
    /// Reads a registry file's JSON (docs/scenario-format.md, "Registry"):
    ///
    ///     {"registry": 1,
    ///      "publications": [{"id", "message", "from"?, "until"?,
    ///                        "tokens": [{"token": HEX, "mediums"?: ["ble","audio"], "from"?, "until"?}]}],
    ///      "beacons": [{"advertisedId": {"type": "EDDYSTONE"|"IBEACON"|"ALTBEACON", "id": BASE64},
    ///                   "beaconName"?, "attachments": [{"namespacedType": "ns/type", "data": BASE64,
    ///                                                   "maxDistanceMeters"?}]},
    ///                  {"advertisedId": {"type": "EDDYSTONE_EID", "id"?: BASE64 (initial EID, checked)},
    ///                   "ephemeralIdRegistration": {"beaconIdentityKey": BASE64 (16 bytes)
    ///                        | "beaconEcdhPublicKey" + "serviceEcdhPrivateKey": BASE64 (32 bytes each),
    ///                      "rotationPeriodExponent": 0…15, "initialClockValue": 0…2^32−1,
    ///                      "registeredAt": SECONDS | {"unixSeconds": N}},
    ///                   "beaconName"?, "attachments": [...]}]}
    ///
    /// Beacons take the shape of the Proximity Beacon API's `getforobserved` answer and its
    /// `EphemeralIdRegistration` (ENGINE-R2, ENGINE-R2A). Times are seconds in the scenario's
    /// time base, except an EID registration's `{"unixSeconds"}`.
    public init(json root: JSONNode) throws(JSONInputError) {
        let o = try root.object(allowed: ["registry", "description", "publications", "beacons"])
        _ = try o.required("registry").integer(in: 1...1)
        if let d = o.optional("description") { _ = try d.string() }
        var publications: [Publication] = []
        var seen: Set<ExactString> = []
        for n in try o.optional("publications")?.array() ?? [] {
            let p = try n.object(allowed: ["id", "message", "from", "until", "tokens"])
            let idNode = try p.required("id")
            let id = try idNode.string()
            guard seen.insert(ExactString(id)).inserted else {
                throw idNode.fail("publication id \"\(id)\" is used twice")
            }
            let (from, until) = try Self.interval(p)
            var tokens: [TokenAssignment] = []
            for t in try p.required("tokens").array() {
                let to = try t.object(allowed: ["token", "mediums", "from", "until"])
                let (tf, tu) = try Self.interval(to)
                tokens.append(
                    TokenAssignment(
                        token: try ModelJSON.hex(to.required("token"), lengths: [6, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
                        mediums: try to.optional("mediums").map { (m) throws(JSONInputError) in try ModelJSON.mediums(m)
                        } ?? .default,
                        fromMicros: tf, untilMicros: tu))
            }
            publications.append(
                Publication(
                    id: id, message: try ModelJSON.message(p.required("message")),
                    fromMicros: from, untilMicros: until, tokens: tokens))
        }
        var beacons: [Beacon] = []
        for n in try o.optional("beacons")?.array() ?? [] {
            let b = try n.object(allowed: ["advertisedId", "beaconName", "attachments", "ephemeralIdRegistration"])
            let adv = try b.required("advertisedId")
            let a = try adv.object(allowed: ["type", "id"])
            let typeNode = try a.required("type")
            let type = try typeNode.string()
            let name = try b.optional("beaconName")?.string()
            if type == "EDDYSTONE_EID" {
                guard let r = b.optional("ephemeralIdRegistration") else {
                    throw b.node.fail(
                        "an EDDYSTONE_EID beacon resolves through its \"ephemeralIdRegistration\" (identity key, "
                            + "rotation exponent, clock), which is missing"
                    )
                }
                let e = try Self.ephemeralIDRegistration(r)
                if let idNode = a.optional("id") {
                    let id = try ModelJSON.base64(idNode)
                    guard id == e.initialEID else {
                        throw idNode.fail(
                            "the initial EID is \(Base64.encode(e.initialEID)) (\(Hex.encode(e.initialEID))) for "
                                + "this identity key, exponent and clock, not \(Hex.encode(id))"
                        )
                    }
                }
                beacons.append(Beacon(ephemeralID: e, beaconName: name, attachments: try Self.attachments(b)))
                continue
            }
            if let r = b.optional("ephemeralIdRegistration") {
                throw r.fail("only an EDDYSTONE_EID beacon has an ephemeralIdRegistration")
            }
            let idNode = try a.required("id")
            let id = try ModelJSON.base64(idNode)
            let identity: SightingIdentity
            switch type {
            case "EDDYSTONE":
                guard id.count == 16 else {
                    throw idNode.fail("an EDDYSTONE id is 16 bytes (namespace + instance), found \(id.count)")
                }
                identity = SightingIdentity(.eddystoneUID, id)
            case "IBEACON":
                guard id.count == 20 else {
                    throw idNode.fail("an IBEACON id is 20 bytes (UUID + major + minor), found \(id.count)")
                }
                identity = SightingIdentity(.iBeacon, id)
            case "ALTBEACON":
                guard id.count == 20 else { throw idNode.fail("an ALTBEACON id is 20 bytes, found \(id.count)") }
                identity = SightingIdentity(.altBeacon, id)
            default:
                throw typeNode.fail(
                    "\"\(type)\" is not one of \"EDDYSTONE\", \"IBEACON\", \"ALTBEACON\", \"EDDYSTONE_EID\"")
            }
            beacons.append(Beacon(advertisedID: identity, beaconName: name, attachments: try Self.attachments(b)))
        }
        self.init(publications: publications, beacons: beacons)
    }

    /// A beacon's `attachments`: `namespacedType` "namespace/type", base64 `data`.
    static func attachments(_ b: JSONObject) throws(JSONInputError) -> [Message] {
        var attachments: [Message] = []
        for an in try b.required("attachments").array() {
            let ao = try an.object(allowed: ["namespacedType", "data", "maxDistanceMeters"])
            let ntNode = try ao.required("namespacedType")
            let nt = try ntNode.string()
            guard let slash = nt.firstIndex(of: "/"), slash != nt.startIndex, nt.index(after: slash) != nt.endIndex
            else {
                throw ntNode.fail("\"\(nt)\" is not \"namespace/type\"")
            }
            if let d = ao.optional("maxDistanceMeters") {
                _ = try d.microseconds(in: 0...1_000_000_000_000, unit: "meters")
            }
            attachments.append(
                Message(
                    namespace: String(nt[..<slash]),
                    type: try ModelJSON.type(String(nt[nt.index(after: slash)...]), at: ntNode),
                    content: try ModelJSON.content(ao.required("data"))))
        }
        return attachments
    }

    /// `ephemeralIdRegistration`: the identity key (given, or derived from the beacon's public
    /// key and the resolver's private key by X25519 + HKDF), K, and the clock at registration.
    static func ephemeralIDRegistration(_ n: JSONNode) throws(JSONInputError) -> EphemeralIDRegistration {
        let o = try n.object(allowed: [
            "beaconIdentityKey", "beaconEcdhPublicKey", "serviceEcdhPrivateKey",
            "rotationPeriodExponent", "initialClockValue", "registeredAt",
        ])
        let key: [UInt8]
        if let k = o.optional("beaconIdentityKey") {
            for other in ["beaconEcdhPublicKey", "serviceEcdhPrivateKey"] where o.has(other) {
                throw n.fail("give the identity key or the key pair to derive it from, not both (\"\(other)\")")
            }
            key = try ModelJSON.base64(k)
            guard key.count == 16 else { throw k.fail("an identity key is 16 bytes (AES-128), found \(key.count)") }
        } else {
            guard o.has("beaconEcdhPublicKey") || o.has("serviceEcdhPrivateKey") else {
                throw n.fail(
                    "give \"beaconIdentityKey\", or \"beaconEcdhPublicKey\" and \"serviceEcdhPrivateKey\" to derive it")
            }
            let pubNode = try o.required("beaconEcdhPublicKey"), privNode = try o.required("serviceEcdhPrivateKey")
            let pub = try ModelJSON.base64(pubNode), priv = try ModelJSON.base64(privNode)
            guard pub.count == 32 else { throw pubNode.fail("an X25519 public key is 32 bytes, found \(pub.count)") }
            guard priv.count == 32 else {
                throw privNode.fail("an X25519 private key is 32 bytes, found \(priv.count)")
            }
            do {
                key = try IdentityKeyDerivation.identityKey(resolverPrivateKey: priv, beaconPublicKey: pub)
            } catch {
                throw pubNode.fail(error.reason)
            }
        }
        let k = try o.required("rotationPeriodExponent").integer(in: 0...15)
        let clock = try o.required("initialClockValue").integer(in: 0...Int64(UInt32.max))
        let tNode = try o.required("registeredAt")
        let time: EphemeralIDRegistration.Time
        if case .object = tNode.value {
            let to = try tNode.object(allowed: ["unixSeconds"])
            time = .unixMicros(try to.required("unixSeconds").microseconds(in: ModelJSON.timeRange))
        } else {
            time = .scenarioMicros(
                try tNode.microseconds(in: -ModelJSON.timeRange.upperBound...ModelJSON.timeRange.upperBound))
        }
        do {
            return try EphemeralIDRegistration(
                identityKey: key, rotationExponent: Int(k), initialClockValue: UInt32(clock), registeredAt: time)
        } catch {
            throw n.fail(error.reason)
        }
    }

    private static func interval(_ o: JSONObject) throws(JSONInputError) -> (Int64?, Int64?) {
        let from = try o.optional("from").map { (n) throws(JSONInputError) in try ModelJSON.time(n) }
        let until = try o.optional("until").map { (n) throws(JSONInputError) in try ModelJSON.time(n) }
        if let from, let until, until <= from {
            throw o.node.fail("\"until\" must be later than \"from\"")
        }
        return (from, until)
    }
}
