import NearbyJSON
import NearbyMessages
import NearbyReplay

/// The device state of a scenario as bands: one lane per state field that is, at some time,
/// in a state that stops some scanning (docs/spec/engine.md A1–A4): a permission other than
/// granted (location: other than always), Bluetooth off, the app in the background. Each band
/// says which scenario events began and ended it.
enum DeviceStateLanes {
    struct Field: Sendable {
        var label: String
        /// The field's value as text, or nil when it stops nothing.
        var stopping: @Sendable (DeviceState) -> String?
    }

    static let fields = [
        Field(label: "Nearby permission") { $0.nearbyPermission == .granted ? nil : $0.nearbyPermission.rawValue },
        Field(label: "Bluetooth power") { $0.bluetoothPowerOn ? nil : "off" },
        Field(label: "Bluetooth permission") {
            $0.bluetoothPermission == .granted ? nil : $0.bluetoothPermission.rawValue
        },
        Field(label: "microphone permission") {
            $0.microphonePermission == .granted ? nil : $0.microphonePermission.rawValue
        },
        Field(label: "location permission") {
            $0.locationPermission == .always ? nil : $0.locationPermission.rawValue
        },
        Field(label: "app state") { $0.appState == .foreground ? nil : $0.appState.rawValue },
    ]

    static func make(_ scenario: Scenario, end: Int64) -> [Timeline.Lane] {
        // The state after each change, with the change's time and text.
        var states: [(Int64, DeviceState, String)] = [(Int64.min, scenario.initialState, "the initial state")]
        var state = scenario.initialState
        for (index, (time, input)) in scenario.inputs.enumerated() {
            switch input {
            case .action(.changeState(let change)): state.apply(change)
            case .action(.answerPermission(let granted)): state.nearbyPermission = granted ? .granted : .denied
            default: continue
            }
            states.append((time, state, "scenario event \(index): \(ReplaySession.describe(input))"))
        }
        var lanes: [Timeline.Lane] = []
        for field in fields {
            var lane = Timeline.Lane(label: field.label)
            var open: (Int64, String, String)?
            func close(at time: Int64, _ why: String) {
                guard let (from, value, cause) = open else { return }
                let start = from == .min ? "the start" : seconds(from) + " s (\(cause))"
                lane.marks.append(
                    .init(
                        .band, .state, at: from == .min ? Int64.min / 2 : from, until: time,
                        text: "\(field.label) \(value) from \(start) until \(why)"))
                open = nil
            }
            for (time, s, cause) in states {
                let value = field.stopping(s)
                if let current = open, current.1 == value { continue }
                if open != nil { close(at: time, seconds(time) + " s (\(cause))") }
                if let value { open = (time, value, cause) }
            }
            close(at: end, "the end")
            if !lane.marks.isEmpty { lanes.append(lane) }
        }
        return lanes
    }

    static func seconds(_ micros: Int64) -> String { JSONValue.seconds(micros: micros).serialized }
}
