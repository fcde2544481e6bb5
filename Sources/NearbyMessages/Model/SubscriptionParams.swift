/// What a subscription looks for (`GNSSubscriptionParams.deviceTypesToDiscover`:
/// `kGNSDeviceUsingNearby` 1<<0, the default, and `kGNSDeviceBLEBeacon` 1<<1).
public struct DeviceTypes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let nearbyDevices = DeviceTypes(rawValue: 1 << 0)
    public static let bleBeacons = DeviceTypes(rawValue: 1 << 1)
}

/// A subscription's parameters (`GNSSubscriptionParams`, ENGINE-A4, ENGINE-R3). The filter is the
/// namespace and type (ENGINE-R3, ENGINE-R3A): an empty namespace means the observer app's own
/// project namespace, an empty type every type of the namespace.
public struct SubscriptionParams: Hashable, Sendable {
    public var deviceTypes: DeviceTypes
    public var messageNamespace: String
    public var type: String
    public var strategy: Strategy
    public var beaconStrategy: BeaconStrategy
    /// The app shows its own consent dialog (`permissionRequestHandler`) instead of Nearby's
    /// (ENGINE-D1).
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
    /// The app shows its own consent dialog instead of Nearby's (ENGINE-D1).
    public var permissionRequestHandler: Bool

    public init(message: Message, strategy: Strategy = Strategy(), permissionRequestHandler: Bool = false) {
        self.message = message
        self.strategy = strategy
        self.permissionRequestHandler = permissionRequestHandler
    }
}
