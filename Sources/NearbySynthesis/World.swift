import NearbyCapture

/// What the synthesizer simulates (docs/synthesis.md): the devices around the observer, each
/// with its advertisements and a path of mean received signal strength over time, and the
/// observer's scanner with its duty cycle, sensitivity and the way its controller reports.
/// Times are µs in the scenario's time base.
public struct World: Sendable {
    /// Seeds every random choice (advertising delay, RSSI noise, losses, unrelated devices).
    public var seed: UInt64
    /// The captures cover [0, duration).
    public var durationMicros: Int64
    public var scanner: Scanner
    public var devices: [Device]
    /// What the observer's microphone records; nil: no sound file.
    public var audio: Audio?

    /// The observer's scanner and its controller.
    public struct Scanner: Sendable {
        /// Which HCI event the controller reports advertisements with.
        public enum Reports: String, Sendable { case legacy, extended }
        /// Scan interval (µs, 2.5 ms … 10.24 s); the scanner listens on channel 37, 38, 39 in
        /// turn, one per interval.
        public var intervalMicros: Int64 = 100_000
        /// Scan window (µs, ≤ interval): how long it listens at the start of each interval.
        public var windowMicros: Int64 = 100_000
        /// Advertisements whose mean RSSI is below this (dBm) are not received.
        public var sensitivityDBm: Double = -95
        public var reports: Reports = .legacy
        /// Reports received within this long of the first one pending are sent in one
        /// event (µs; 0: one report per event).
        public var batchMicros: Int64 = 0
        /// At most this many reports per event (1–25; the event must also fit 255 bytes).
        public var maxReportsPerEvent: Int = 1
        /// Fraction of otherwise receivable advertisements lost (0 ≤ p < 1).
        public var lossRate: Double = 0
        /// Extended advertising data is split into reports of at most this many bytes
        /// (data status "incomplete, more data" on all but the last); nil: not split.
        public var fragmentBytes: Int?
        /// Intervals [from, until) in which the host has scanning switched off.
        public var pauses: [(from: Int64, until: Int64)] = []

        public init() {}
    }

    /// One advertising device.
    public struct Device: Sendable {
        public var name: String
        public var address: BluetoothAddress
        public var addressType: AddressType
        /// Advertising interval (µs, 20 ms … 10.24 s); each event is delayed by a further
        /// random 0–10 ms (advDelay, Core Vol 6 Part B §4.4.2.2.1).
        public var intervalMicros: Int64
        /// ADV_IND (true) or ADV_NONCONN_IND.
        public var connectable: Bool
        /// Sends extended advertising (ADV_EXT_IND + AUX_ADV_IND): only an extended scanner
        /// reports it, and the channel-37 sniffer does not record it.
        public var extendedAdvertising: Bool
        /// Mean RSSI (dBm) at the given times, linear in between, constant outside.
        public var path: [(time: Int64, dBm: Double)]
        /// Standard deviation of the reported RSSI around the mean, dB.
        public var rssiNoiseDB: Double
        /// Frames sent in turn, one per advertising event, among those active at that time.
        public var frames: [Frame]
        /// An unrelated device (generated from `clutter`): not itemised in the ground truth.
        public var isClutter: Bool = false

        public init(
            name: String, address: BluetoothAddress, addressType: AddressType, intervalMicros: Int64,
            connectable: Bool = false, extendedAdvertising: Bool = false,
            path: [(time: Int64, dBm: Double)], rssiNoiseDB: Double = 0, frames: [Frame]
        ) {
            self.name = name
            self.address = address
            self.addressType = addressType
            self.intervalMicros = intervalMicros
            self.connectable = connectable
            self.extendedAdvertising = extendedAdvertising
            self.path = path
            self.rssiNoiseDB = rssiNoiseDB
            self.frames = frames
        }

        /// Mean RSSI at `t` (dBm).
        public func meanRSSI(at t: Int64) -> Double {
            guard let first = path.first, let last = path.last else { return -200 }
            if t <= first.time { return first.dBm }
            if t >= last.time { return last.dBm }
            var i = 1
            while path[i].time < t { i += 1 }
            let a = path[i - 1], b = path[i]
            if b.time == a.time { return b.dBm }
            return a.dBm + (b.dBm - a.dBm) * Double(t - a.time) / Double(b.time - a.time)
        }
    }

    /// One advertisement a device sends while `[from, until)` covers the time.
    public struct Frame: Sendable {
        /// What the frame is, as the ground truth names it (`eddystone-uid`, `ibeacon`, …).
        public var kind: String
        /// The AD data, ≤ 31 bytes for legacy advertising.
        public var adData: [UInt8]
        public var from: Int64?
        public var until: Int64?
        /// The address the device sends this frame from, when not its own (a phone rotates
        /// its random address with its token).
        public var address: BluetoothAddress?

        public init(
            kind: String, adData: [UInt8], from: Int64? = nil, until: Int64? = nil, address: BluetoothAddress? = nil
        ) {
            self.kind = kind
            self.adData = adData
            self.from = from
            self.until = until
            self.address = address
        }

        public func isActive(at t: Int64) -> Bool {
            (from.map { t >= $0 } ?? true) && (until.map { t < $0 } ?? true)
        }
    }

    public init(seed: UInt64, durationMicros: Int64, scanner: Scanner = Scanner(), devices: [Device]) {
        self.seed = seed
        self.durationMicros = durationMicros
        self.scanner = scanner
        self.devices = devices
    }
}
