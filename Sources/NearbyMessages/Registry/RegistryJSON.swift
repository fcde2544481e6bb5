import NearbyJSON

extension Registry {
    /// Reads a registry file's JSON (docs/scenario-format.md, "Registry"):
    ///
    ///     {"registry": 1,
    ///      "publications": [{"id", "message", "from"?, "until"?,
    ///                        "tokens": [{"token": HEX, "mediums"?: ["ble","audio"], "from"?, "until"?}]}],
    ///      "beacons": [{"advertisedId": {"type": "EDDYSTONE"|"IBEACON"|"ALTBEACON", "id": BASE64},
    ///                   "beaconName"?, "attachments": [{"namespacedType": "ns/type", "data": BASE64,
    ///                                                   "maxDistanceMeters"?}]}]}
    ///
    /// Beacons take the shape of the Proximity Beacon API's `getforobserved` answer
    /// (formats.md §4.5). Times are seconds in the scenario's time base.
    public init(json root: JSONNode) throws(JSONInputError) {
        let o = try root.object(allowed: ["registry", "description", "publications", "beacons"])
        _ = try o.required("registry").integer(in: 1...1)
        if let d = o.optional("description") { _ = try d.string() }
        var publications: [Publication] = []
        var seen: Set<String> = []
        for n in try o.optional("publications")?.array() ?? [] {
            let p = try n.object(allowed: ["id", "message", "from", "until", "tokens"])
            let idNode = try p.required("id")
            let id = try idNode.string()
            guard seen.insert(id).inserted else { throw idNode.fail("publication id \"\(id)\" is used twice") }
            let (from, until) = try Self.interval(p)
            var tokens: [TokenAssignment] = []
            for t in try p.required("tokens").array() {
                let to = try t.object(allowed: ["token", "mediums", "from", "until"])
                let (tf, tu) = try Self.interval(to)
                tokens.append(TokenAssignment(
                    token: try ModelJSON.hex(to.required("token"), lengths: [6, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
                    mediums: try to.optional("mediums").map { (m) throws(JSONInputError) in try ModelJSON.mediums(m) } ?? .default,
                    fromMicros: tf, untilMicros: tu))
            }
            publications.append(Publication(id: id, message: try ModelJSON.message(p.required("message")),
                                            fromMicros: from, untilMicros: until, tokens: tokens))
        }
        var beacons: [Beacon] = []
        for n in try o.optional("beacons")?.array() ?? [] {
            let b = try n.object(allowed: ["advertisedId", "beaconName", "attachments"])
            let adv = try b.required("advertisedId")
            let a = try adv.object(allowed: ["type", "id"])
            let typeNode = try a.required("type")
            let type = try typeNode.string()
            let idNode = try a.required("id")
            let id = try ModelJSON.base64(idNode)
            let identity: SightingIdentity
            switch type {
            case "EDDYSTONE":
                guard id.count == 16 else { throw idNode.fail("an EDDYSTONE id is 16 bytes (namespace + instance), found \(id.count)") }
                identity = SightingIdentity(.eddystoneUID, id)
            case "IBEACON":
                guard id.count == 20 else { throw idNode.fail("an IBEACON id is 20 bytes (UUID + major + minor), found \(id.count)") }
                identity = SightingIdentity(.iBeacon, id)
            case "ALTBEACON":
                guard id.count == 20 else { throw idNode.fail("an ALTBEACON id is 20 bytes, found \(id.count)") }
                identity = SightingIdentity(.altBeacon, id)
            case "EDDYSTONE_EID":
                throw typeNode.fail("EDDYSTONE_EID beacons resolve through identity keys, which this registry format does not hold yet")
            default:
                throw typeNode.fail("\"\(type)\" is not one of \"EDDYSTONE\", \"IBEACON\", \"ALTBEACON\"")
            }
            var attachments: [Message] = []
            for an in try b.required("attachments").array() {
                let ao = try an.object(allowed: ["namespacedType", "data", "maxDistanceMeters"])
                let ntNode = try ao.required("namespacedType")
                let nt = try ntNode.string()
                guard let slash = nt.firstIndex(of: "/"), slash != nt.startIndex, nt.index(after: slash) != nt.endIndex else {
                    throw ntNode.fail("\"\(nt)\" is not \"namespace/type\"")
                }
                if let d = ao.optional("maxDistanceMeters") { _ = try d.microseconds(in: 0...1_000_000_000_000, unit: "meters") }
                let m = Message(namespace: String(nt[..<slash]), type: String(nt[nt.index(after: slash)...]),
                                content: try ModelJSON.base64(ao.required("data")))
                attachments.append(try ModelJSON.checked(m, at: an))
            }
            beacons.append(Beacon(advertisedID: identity, beaconName: try b.optional("beaconName")?.string(), attachments: attachments))
        }
        self.init(publications: publications, beacons: beacons)
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
