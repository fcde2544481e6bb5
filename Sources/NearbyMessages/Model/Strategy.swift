/// The mediums a strategy uses (`GNSDiscoveryMediums`: audio 1<<0, BLE 1<<1, default both;
/// ENGINE-A2).
public struct DiscoveryMediums: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let audio = DiscoveryMediums(rawValue: 1 << 0)
    public static let ble = DiscoveryMediums(rawValue: 1 << 1)
    public static let `default`: DiscoveryMediums = [.audio, .ble]
}

/// Broadcast and/or scan (`GNSDiscoveryMode` 1<<0, 1<<1; Android DISCOVERY_MODE 1, 2, 3).
public struct DiscoveryMode: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let broadcast = DiscoveryMode(rawValue: 1 << 0)
    public static let scan = DiscoveryMode(rawValue: 1 << 1)
    public static let `default`: DiscoveryMode = [.broadcast, .scan]
}

/// How long a publication or subscription lasts after it is made (`Strategy.setTtlSeconds`).
public enum TimeToLive: Hashable, Sendable {
    /// A finite TTL in microseconds, 1 s … 86,400 s (`TTL_SECONDS_MAX`).
    case micros(Int64)
    /// `TTL_SECONDS_INFINITE`; only subscriptions may use it.
    case infinite

    /// `Strategy.TTL_SECONDS_DEFAULT`, 300 s.
    public static let `default` = TimeToLive.micros(300_000_000)
    /// `Strategy.TTL_SECONDS_MAX`, 86,400 s.
    public static let maximumMicros: Int64 = 86_400_000_000
}

/// A publication's or subscription's strategy (`GNSStrategy`, Android `Strategy`).
public struct Strategy: Hashable, Sendable {
    public var mediums: DiscoveryMediums
    public var mode: DiscoveryMode
    /// `allowInBackground`, default false; in the background only BLE works.
    public var allowInBackground: Bool
    public var ttl: TimeToLive

    public init(
        mediums: DiscoveryMediums = .default, mode: DiscoveryMode = .default,
        allowInBackground: Bool = false, ttl: TimeToLive = .default
    ) {
        self.mediums = mediums
        self.mode = mode
        self.allowInBackground = allowInBackground
        self.ttl = ttl
    }
}

/// `GNSBeaconStrategy` (ENGINE-A3, ENGINE-A4, ENGINE-A6): defaults includeIBeacons YES, lowPowerPreferred YES,
/// allowInBackground NO.
public struct BeaconStrategy: Hashable, Sendable {
    /// Range iBeacons (needs the location permission; ENGINE-A4).
    public var includeIBeacons: Bool
    /// Scan for Eddystone and AltBeacon in the low-power duty cycle unless iBeacon ranging runs
    /// anyway (ENGINE-A6): off, iBeacon ranging is used to find them at once, at the
    /// cost of the location permission.
    public var lowPowerPreferred: Bool
    /// Scan for beacons in the background too (ENGINE-A3).
    public var allowInBackground: Bool

    public init(includeIBeacons: Bool = true, lowPowerPreferred: Bool = true, allowInBackground: Bool = false) {
        self.includeIBeacons = includeIBeacons
        self.lowPowerPreferred = lowPowerPreferred
        self.allowInBackground = allowInBackground
    }
}
