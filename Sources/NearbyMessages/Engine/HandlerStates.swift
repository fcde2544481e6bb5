/// What the app's handlers were last told (ENGINE-H1 to ENGINE-H5): the Nearby permission
/// (`GNSPermission`'s changed handler) and the three error states of `GNSMessageManager`'s
/// handlers. A handler fires when its value here changes.
struct HandlerStates: Equatable, Sendable {
    var nearbyPermission: PermissionState
    var bluetoothPowerError = false
    var bluetoothPermissionError = false
    var microphonePermissionError = false
}
