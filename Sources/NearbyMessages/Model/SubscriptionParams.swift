/// What a subscription looks for (`GNSSubscriptionParams.deviceTypesToDiscover`:
/// `kGNSDeviceUsingNearby` 1<<0, the default, and `kGNSDeviceBLEBeacon` 1<<1).
public struct DeviceTypes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let nearbyDevices = DeviceTypes(rawValue: 1 << 0)
    public static let bleBeacons = DeviceTypes(rawValue: 1 << 1)
}

/// A subscription's parameters (`GNSSubscriptionParams`, formats.md §4.4). The filter is the
/// namespace and type (docs/spec/engine.md R3): an empty namespace means the observer app's own
/// project namespace, an empty type every type of the namespace.
public struct SubscriptionParams: Hashable, Sendable {
    public var deviceTypes: DeviceTypes
    public var messageNamespace: String
    public var type: String
    public var strategy: Strategy
    public var beaconStrategy: BeaconStrategy
    /// The app shows its own consent dialog (`permissionRequestHandler`) instead of Nearby's
    /// (docs/spec/engine.md D1).
    public var permissionRequestHandler: Bool

    public init(
        deviceTypes: DeviceTypes = .nearbyDevices, messageNamespace: String = "", type: String = "",
        strategy: Strategy = Strategy(), beaconStrategy: BeaconStrategy = BeaconStrategy(),
        permissionRequestHandler: Bool = false
    ) {
        self.deviceTypes = deviceTypes
        self.messageNamespace = messageNamespace
        self.type = type
        self.strategy = strategy
        self.beaconStrategy = beaconStrategy
        self.permissionRequestHandler = permissionRequestHandler
    }
}

/// A publication made by the observer app itself. Its own messages are never delivered to its
/// own subscriptions; it matters for the error handlers and its expiry callback.
public struct PublicationParams: Hashable, Sendable {
    public var message: Message
    public var strategy: Strategy
    /// The app shows its own consent dialog instead of Nearby's (docs/spec/engine.md D1).
    public var permissionRequestHandler: Bool

    public init(message: Message, strategy: Strategy = Strategy(), permissionRequestHandler: Bool = false) {
        self.message = message
        self.strategy = strategy
        self.permissionRequestHandler = permissionRequestHandler
    }
}
