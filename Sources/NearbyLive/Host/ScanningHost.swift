import NearbyCapture

/// The host side of a controller this program drives (`tcp-client:`, `hci-user:`): it
/// resets the controller, reads its LE features, unmasks the advertising report events and
/// starts passive scanning, extended when the controller supports it, with no duplicate
/// filtering (every advertisement is reported, as the capture must hold them all).
///
/// Commands go one at a time, each waiting for its Command Complete or Command Status
/// (Core Vol 4 Part E §4.4); every packet sent or received passes through `exchange`.
struct ScanningHost {
    /// How scanning was set up.
    struct Setup: Sendable, Equatable {
        /// LE Extended Advertising supported (LE feature bit 12): extended scanning.
        var extended: Bool
        /// LE Coded PHY supported (LE feature bit 11): scanning on it too (extended only).
        var codedPHY: Bool

        var description: String {
            let phys = codedPHY ? "LE 1M and LE Coded PHYs" : "LE 1M PHY"
            return (extended ? "extended" : "legacy") + " passive scanning on the " + phys
                + ", no duplicate filtering, window = interval = 60 ms"
        }
    }

    let transport: any HCITransport
    let name: String
    /// Sees every packet exchanged, in order: the packet (H4) and true when the host sent it.
    let exchange: ([UInt8], Bool) -> Void
    /// How long a command may take to complete, milliseconds.
    var commandTimeoutMillis: Int32 = 3000

    /// Scan interval and window, in units of 0.625 ms: 96 = 60 ms, window = interval.
    static let scanInterval: UInt16 = 0x0060

    /// Sends `opcode` with `parameters` and waits for its completion; returns the return
    /// parameters after the status. Throws when the controller answers with an error status
    /// or not in time.
    @discardableResult
    func command(_ opcode: HCIOpcode, _ parameters: [UInt8] = []) throws(LiveError) -> [UInt8] {
        let packet = HCIPacketBuilder.command(opcode: opcode.rawValue, parameters)
        exchange(packet, true)
        try transport.send(packet)
        let deadline = HostClock.monotonicMicros() + Int64(commandTimeoutMillis) * 1000
        while true {
            let left = deadline - HostClock.monotonicMicros()
            guard left > 0 else {
                throw LiveError(
                    source: name, .commandTimeout,
                    "the controller did not answer \(opcode) within \(commandTimeoutMillis) ms")
            }
            guard
                case .packet(let p) = try transport.receive(timeoutMillis: Int32((left + 999) / 1000), stoppable: false)
            else { continue }
            exchange(p, false)
            guard let (status, returned) = Self.answer(to: opcode, in: p) else { continue }
            guard status == .success else { throw failure(opcode, status) }
            return returned
        }
    }

    /// The status and return parameters `packet` gives when it is the Command Complete
    /// (§7.7.14: packets, opcode, status, return parameters) or Command Status (§7.7.15:
    /// status, packets, opcode; nothing returned) of `opcode`; nil for any other packet.
    static func answer(to opcode: HCIOpcode, in packet: [UInt8]) -> (HCIStatus, [UInt8])? {
        guard packet.first == HCIPacketType.event.rawValue, let event = try? HCIEvent(decoding: packet[1...]) else {
            return nil
        }
        let p = event.parameters, at = p.startIndex
        guard p.count >= 4 else { return nil }
        switch event.code {
        case .commandComplete where UInt16(p[at + 1]) | UInt16(p[at + 2]) << 8 == opcode.rawValue:
            return (HCIStatus(rawValue: p[at + 3]), Array(p[(at + 4)...]))
        case .commandStatus where UInt16(p[at + 2]) | UInt16(p[at + 3]) << 8 == opcode.rawValue:
            return (HCIStatus(rawValue: p[at]), [])
        default:
            return nil
        }
    }

    private func failure(_ opcode: HCIOpcode, _ status: HCIStatus) -> LiveError {
        LiveError(source: name, .commandFailed, "the controller answered \(opcode) with status \(status)")
    }

    /// Resets the controller and starts scanning.
    func startScanning() throws(LiveError) -> Setup {
        try command(.reset)
        let features = try command(.leReadLocalSupportedFeatures)
        var mask: UInt64 = 0
        for (i, byte) in features.prefix(8).enumerated() { mask |= UInt64(byte) << (8 * UInt64(i)) }
        let setup = Setup(extended: mask & 1 << 12 != 0, codedPHY: mask & 1 << 11 != 0)
        // The default event mask (0x00001FFFFFFFFFFF) leaves out LE Meta (bit 61).
        try command(.setEventMask, Self.littleEndian(0x2000_1FFF_FFFF_FFFF))
        // LE events: the default five (bits 0-4), Directed Advertising Report (bit 10),
        // Extended Advertising Report (bit 12).
        try command(.leSetEventMask, Self.littleEndian(0x0000_0000_0000_141F))
        let i = [UInt8(Self.scanInterval & 0xFF), UInt8(Self.scanInterval >> 8)]
        if setup.extended {
            // Own address public, accept all, PHYs; per PHY: passive, interval, window.
            var p: [UInt8] = [0x00, 0x00, setup.codedPHY ? 0x05 : 0x01]
            for _ in 0..<(setup.codedPHY ? 2 : 1) { p += [0x00] + i + i }
            try command(.leSetExtendedScanParameters, p)
            // Enable, no duplicate filtering, no duration, no period.
            try command(.leSetExtendedScanEnable, [0x01, 0x00, 0x00, 0x00, 0x00, 0x00])
        } else {
            // Passive, interval, window, own address public, accept all.
            try command(.leSetScanParameters, [0x00] + i + i + [0x00, 0x00])
            try command(.leSetScanEnable, [0x01, 0x00])
        }
        return setup
    }

    /// Stops scanning as `setup` started it.
    func stopScanning(_ setup: Setup) throws(LiveError) {
        if setup.extended {
            try command(.leSetExtendedScanEnable, [0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        } else {
            try command(.leSetScanEnable, [0x00, 0x00])
        }
    }

    static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
