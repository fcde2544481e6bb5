import NearbyBytes
import NearbyCapture

/// Records from a live source as they arrive, read as a capture file is read
/// (`CaptureRecordReader`), so that the decoder, the replay and the writers treat a live
/// session as they treat a file.
///
/// A driven source (`tcp-client:`, `hci-user:`) is reset and set scanning when the capture
/// is opened; its records are every H4 packet the host sent (direction 0) or received
/// (direction 1), LINKTYPE 201 framing (a 4-byte big-endian direction, then the H4
/// packet). The monitor channel's records are LINKTYPE 254 (controller index and opcode,
/// big-endian, then the payload). Timestamps come from the host's clock (`HostClock`).
///
/// The capture ends when a stop is asked for (SIGINT or SIGTERM, once `StopRequest.install()`
/// ran), when `Limits` are reached, or when the source fails (`failure` says how); a driven
/// controller's scanning is disabled before the end. Every record received before the end,
/// a failure included, is delivered and written.
public final class LiveCapture: CaptureRecordReader {
    /// Bounds of a session; nil for none.
    public struct Limits: Sendable {
        /// Seconds after scanning started (µs).
        public var durationMicros: Int64?
        /// Records received from the source after scanning started.
        public var maximumRecords: Int?

        public init(durationMicros: Int64? = nil, maximumRecords: Int? = nil) {
            self.durationMicros = durationMicros
            self.maximumRecords = maximumRecords
        }
    }

    /// Why the capture ended.
    public enum End: Sendable, Equatable {
        /// SIGINT or SIGTERM (the signal number).
        case signal(Int32)
        /// `Limits.durationMicros` ran out.
        case duration
        /// `Limits.maximumRecords` were received.
        case count
        /// The source failed (`failure`).
        case failure
    }

    public let source: LiveSourceName
    public let format = CaptureFormat.live
    public let encapsulationDescription: String
    /// The Unix time (µs) scanning started: the Command Complete of the scan enable command
    /// for a driven controller, the opening of the socket for the monitor. Scenario time 0 of
    /// a live replay.
    public private(set) var scanStartMicros: Int64 = 0
    /// How scanning was set up, for people (nil for the monitor channel).
    public private(set) var setupDescription: String?
    /// What ended the capture early, when the source failed.
    public private(set) var failure: LiveError?
    /// Why the capture ended; nil while it runs.
    public private(set) var end: End?
    /// Records received from the source since scanning started.
    public private(set) var recordsReceived = 0
    /// All records so far, sent and received.
    public private(set) var recordCount = 0
    /// Called with the time (Unix µs) at least every `tickMillis` while the capture waits
    /// for records, and after the last record: a live replay fires its lost timers there. Every
    /// record delivered afterwards has a later time.
    package var onTick: ((Int64) -> Void)?
    public var tickMillis: Int32 = 100

    private let transport: any HCITransport
    private let limits: Limits
    private let writer: LiveCaptureWriter?
    private let clock = HostClock()
    private var queue: [CaptureRecord] = []
    private var queueStart = 0
    private var setup: ScanningHost.Setup?
    private var lastTickMicros: Int64 = 0
    /// Why the capture being written (`writer`) could not be written, once it failed.
    private var writeFailure: LiveError?
    /// Bytes the source sent that could not be framed, as the malformed record read gives
    /// before the end.
    private var unframed: CaptureReadStep?

    /// Opens `source` and, for a driven controller, starts scanning. Throws when the source
    /// cannot be opened; a controller that fails during setup ends the capture at once
    /// (`failure`), its records still delivered.
    public init(source: LiveSourceName, limits: Limits = Limits(), writer: LiveCaptureWriter? = nil) throws(LiveError) {
        self.source = source
        self.limits = limits
        self.writer = writer
        let name = source.description
        switch source {
        case .tcpClient(let host, let port):
            transport = try TCPTransport(host: host, port: port, name: name)
            encapsulationDescription = "live H4 over TCP, LINKTYPE 201 (BLUETOOTH_HCI_H4_WITH_PHDR)"
        case .hciUser(let index):
            transport = try BluetoothSocketTransport(.user(index: index), name: name)
            encapsulationDescription = "live HCI user channel, LINKTYPE 201 (BLUETOOTH_HCI_H4_WITH_PHDR)"
        case .hciMonitor:
            transport = try BluetoothSocketTransport(.monitor, name: name)
            encapsulationDescription = "live HCI monitor channel, LINKTYPE 254 (BLUETOOTH_LINUX_MONITOR)"
        }
        guard source.drivesController else {
            scanStartMicros = clock.nowMicros()
            lastTickMicros = scanStartMicros
            return
        }
        do {
            let s = try host().startScanning()
            setup = s
            setupDescription = s.description
            scanStartMicros = queue.last?.metadata.timestampMicros ?? clock.nowMicros()
            lastTickMicros = scanStartMicros
            if let writeFailure { stop(.failure, writeFailure) }
        } catch {
            finish(.failure, error)
        }
    }

    /// Lends the next record, one per call; waits for one while the capture runs.
    public func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        while queueStart == queue.count && end == nil { pump() }
        guard queueStart < queue.count else {
            if let step = unframed {
                unframed = nil
                return step
            }
            if let onTick {
                self.onTick = nil
                onTick(clock.nowMicros())
            }
            return .end
        }
        let record = queue[queueStart]
        queueStart += 1
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        }
        _ = record.withView { body($0) }
        return .record
    }

    /// Waits for what comes next: a packet, a tick, a stop.
    private func pump() {
        let now = clock.nowMicros()
        if let onTick, now - lastTickMicros >= Int64(tickMillis) * 1000 {
            lastTickMicros = now
            onTick(now)
        }
        if StopRequest.requested { return stop(.signal(StopRequest.receivedSignal)) }
        var wait = tickMillis
        if let d = limits.durationMicros {
            let left = scanStartMicros + d - now
            if left <= 0 { return stop(.duration) }
            wait = Int32(min(Int64(wait), (left + 999) / 1000))
        }
        if let m = limits.maximumRecords, recordsReceived >= m { return stop(.count) }
        do {
            switch try transport.receive(timeoutMillis: wait, stoppable: true) {
            case .packet(let p):
                take(p, sent: false)
                recordsReceived += 1
                // The file cannot keep what comes next: stop, scanning disabled.
                if let writeFailure { stop(.failure, writeFailure) }
            case .timeout, .stopRequested: break
            }
        } catch {
            finish(.failure, error)
        }
    }

    /// The host that drives the controller, its packets taken as records.
    private func host() -> ScanningHost {
        ScanningHost(transport: transport, name: source.description) { (packet, sent) in
            self.take(packet, sent: sent)
        }
    }

    /// Disables scanning (a driven controller) and ends the capture.
    private func stop(_ reason: End, _ error: LiveError? = nil) {
        if let setup {
            do {
                try host().stopScanning(setup)
            } catch {
                return finish(.failure, error)
            }
        }
        finish(reason, error)
    }

    private func finish(_ reason: End, _ error: LiveError?) {
        guard end == nil else { return }
        // H4-10: bytes that are not H4 end the stream as one malformed record at their offset.
        if let error, error.code == .garbage {
            recordCount += 1
            unframed = .malformed(
                ContainerFault(
                    index: recordCount, fileOffset: error.streamOffset, line: nil,
                    DecodeError(.h4, .invalidValue, at: 0, error.reason), skipped: nil))
        }
        end = reason
        failure = error
        transport.close()
        if let writer, writeFailure == nil {
            do throws(LiveError) {
                try writer.close()
            } catch {
                if failure == nil { failure = error }
            }
        }
    }

    /// MONITOR-5: a monitor-channel packet as a LINKTYPE 254 record: the monitor header (opcode,
    /// controller index, payload length: little-endian 16-bit, BlueZ `src/shared/btsnoop.h`)
    /// becomes the pseudo-header (index, opcode: big-endian), the length dropped. A packet
    /// shorter than its header is kept as it came (the decoder reports it malformed).
    static func monitorRecord(_ packet: [UInt8]) -> [UInt8] {
        guard packet.count >= 6 else { return packet }
        return [packet[3], packet[2], packet[1], packet[0]] + packet[6...]
    }

    /// Makes `packet` the next record, and writes it (until writing fails once: `writeFailure`).
    private func take(_ packet: [UInt8], sent: Bool) {
        recordCount += 1
        let time = clock.nowMicros()
        let bytes: [UInt8]
        let encapsulation: Encapsulation
        if source.drivesController {
            bytes = [0, 0, 0, sent ? 0 : 1] + packet
            encapsulation = .pcap(.bluetoothHCIH4WithPHDR)
        } else {
            bytes = Self.monitorRecord(packet)
            encapsulation = .pcap(.bluetoothLinuxMonitor)
        }
        let record = CaptureRecord(
            index: recordCount, timestampMicros: time, encapsulation: encapsulation, bytes: bytes[...])
        queue.append(record)
        guard let writer, writeFailure == nil else { return }
        do throws(LiveError) {
            try writer.write(record)
        } catch {
            writeFailure = error
        }
    }
}
