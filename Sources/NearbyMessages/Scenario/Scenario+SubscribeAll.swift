extension Scenario {
    /// The ids of the subscriptions `subscribingToEverything()` adds, and what each asks for:
    /// the project's own messages (registry publications and beacon attachments, every
    /// type), and the reserved messages every Eddystone-UID and every iBeacon stands for
    /// (ENGINE-R2), registered or not.
    public static let everythingSubscriptions: [(id: String, namespace: String, type: String)] = [
        ("subscribe-all/project", "", ""),
        ("subscribe-all/eddystone-uid", Message.reservedNamespace, Message.eddystoneUIDType),
        ("subscribe-all/ibeacon", Message.reservedNamespace, Message.iBeaconIDType),
    ]

    /// The scenario with `everythingSubscriptions` subscribed at scenario time 0, before its
    /// own events (ENGINE-O1A): each looks for Nearby devices and BLE beacons on BLE and audio,
    /// iBeacons included, scanning at high power, in the background too, and never expires.
    /// What the scenario's device state allows still decides what each counts (ENGINE-A1 to
    /// ENGINE-A6). `replay --subscribe-all` runs it; docs/scenario-format.md, "Subscribing to
    /// everything".
    public func subscribingToEverything() -> Scenario {
        var s = self
        var strategy = Strategy()
        strategy.mode = .scan
        strategy.allowInBackground = true
        strategy.ttl = .infinite
        let beaconStrategy = BeaconStrategy(includeIBeacons: true, lowPowerPreferred: false, allowInBackground: true)
        let added: [(time: Int64, input: Input)] = Self.everythingSubscriptions.map { s in
            let params = SubscriptionParams(
                deviceTypes: s.namespace.isEmpty ? [.nearbyDevices, .bleBeacons] : .bleBeacons,
                messageNamespace: s.namespace, type: s.type, strategy: strategy, beaconStrategy: beaconStrategy)
            return (0, .action(.subscribe(id: s.id, params)))
        }
        s.inputs = added + s.inputs
        return s
    }
}
