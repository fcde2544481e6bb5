/// A permission's state. Only `granted` enables what it guards; `notDetermined` (the user was
/// not asked yet) is not an error for the error handlers, `denied` is.
public enum PermissionState: String, Hashable, Sendable, CaseIterable {
    case granted
    case denied
    case notDetermined
}

/// The location permission as iOS has it (`CLAuthorizationStatus`): not asked yet, denied,
/// while the app is in use, or always. iBeacon ranging needs "when in use" in the foreground and
/// "always" in the background (ENGINE-A4).
public enum LocationPermission: String, Hashable, Sendable, CaseIterable {
    case notDetermined
    case denied
    case whenInUse
    case always

    /// Whether the app may range iBeacons (and so scan for beacons at high power) in the
    /// foreground (`whenInUse` or `always`) or the background (`always` only).
    public func allowsRanging(foreground: Bool) -> Bool {
        self == .always || (foreground && self == .whenInUse)
    }
}

/// Foreground or background.
public enum AppState: String, Hashable, Sendable, CaseIterable {
    case foreground
    case background
}

/// The observer device's state that the engine reads (ENGINE-A1 to ENGINE-A4, ENGINE-H1 to ENGINE-H4). The
/// default is the state of a set-up phone: everything granted (location always), Bluetooth on,
/// the app in the foreground.
public struct DeviceState: Hashable, Sendable {
    public var nearbyPermission: PermissionState = .granted
    public var bluetoothPowerOn: Bool = true
    public var bluetoothPermission: PermissionState = .granted
    public var microphonePermission: PermissionState = .granted
    public var locationPermission: LocationPermission = .always
    public var appState: AppState = .foreground

    public init() {}

    /// Applies the fields a change sets.
    public mutating func apply(_ change: StateChange) {
        if let v = change.nearbyPermission { nearbyPermission = v }
        if let v = change.bluetoothPowerOn { bluetoothPowerOn = v }
        if let v = change.bluetoothPermission { bluetoothPermission = v }
        if let v = change.microphonePermission { microphonePermission = v }
        if let v = change.locationPermission { locationPermission = v }
        if let v = change.appState { appState = v }
    }
}

/// A change of some fields of the device state; nil fields stay as they are.
public struct StateChange: Hashable, Sendable {
    public var nearbyPermission: PermissionState?
    public var bluetoothPowerOn: Bool?
    public var bluetoothPermission: PermissionState?
    public var microphonePermission: PermissionState?
    public var locationPermission: LocationPermission?
    public var appState: AppState?

    public init(
        nearbyPermission: PermissionState? = nil, bluetoothPowerOn: Bool? = nil,
        bluetoothPermission: PermissionState? = nil, microphonePermission: PermissionState? = nil,
        locationPermission: LocationPermission? = nil, appState: AppState? = nil
    ) {
        self.nearbyPermission = nearbyPermission
        self.bluetoothPowerOn = bluetoothPowerOn
        self.bluetoothPermission = bluetoothPermission
        self.microphonePermission = microphonePermission
        self.locationPermission = locationPermission
        self.appState = appState
    }
}
