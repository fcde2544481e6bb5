import NearbySystem

/// Linux's HCI sockets (`AF_BLUETOOTH`, `BTPROTO_HCI`; BlueZ `lib/bluetooth/hci.h`):
///
/// - the monitor channel (`HCI_CHANNEL_MONITOR`, 2): every controller's traffic as `btmon`
///   sees it, read only; each read is a monitor header (opcode, controller index, length:
///   little-endian 16-bit) and its payload. Needs `CAP_NET_RAW`.
/// - the user channel (`HCI_CHANNEL_USER`, 1) on one controller the kernel has released:
///   exclusive, each read or write is one H4 packet. Needs `CAP_NET_ADMIN`.
public final class BluetoothSocketTransport: HCITransport {
    /// The monitor channel, or the user channel of one controller.
    public typealias Channel = BluetoothHCISocket.Channel

    private var fd: Int32
    private let name: String
    private let channel: Channel
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16 + 16)

    public init(_ channel: Channel, name: String) throws(LiveError) {
        self.name = name
        self.channel = channel
        let capability = channel == .monitor ? "CAP_NET_RAW" : "CAP_NET_ADMIN"
        do {
            fd = try BluetoothHCISocket.open(channel).rawValue
        } catch {
            let code = error.errno
            switch (code, error.step, channel) {
            case (.addressFamilyNotSupported, _, _), (.protocolNotSupported, _, _):
                throw LiveError(
                    source: name, .unavailable,
                    "this system has no Bluetooth sockets (AF_BLUETOOTH: the kernel's bluetooth module is not "
                        + "loaded, or this is a container or VM without it; Linux only)")
            case (.notPermitted, _, _), (.permissionDenied, _, _):
                throw LiveError(source: name, .permission, Self.privilegeAdvice(capability, code.rawValue))
            case (.resourceBusy, "bind", .user(let index)), (.alreadyInProcess, "bind", .user(let index)):
                throw LiveError(
                    source: name, .cannotOpen,
                    "hci\(index) is in use by the kernel: release it first (sudo hciconfig hci\(index) down, "
                        + "or sudo btmgmt --index \(index) power off)")
            case (.operationNotSupportedByDevice, "bind", .user(let index)):
                throw LiveError(source: name, .unavailable, "there is no controller hci\(index) (hciconfig lists them)")
            case (_, "bind", _):
                throw LiveError(source: name, .cannotOpen, "cannot bind the HCI socket: \(code)")
            default:
                throw LiveError(source: name, .cannotOpen, "cannot open an HCI socket: \(code)")
            }
        }
    }

    static func privilegeAdvice(_ capability: String, _ code: Int32) -> String {
        "the HCI socket needs \(capability) (\(Poll.errorText(code))): run as root, or give the program the "
            + "capability: sudo setcap \(capability.lowercased())+ep $(command -v nearby-conformance)"
    }

    public func send(_ packet: [UInt8]) throws(LiveError) {
        guard case .user = channel else {
            throw LiveError(source: name, .io, "the monitor channel is read only")
        }
        guard fd >= 0 else { throw LiveError(source: name, .disconnected, "the socket is closed") }
        do {
            let n = try packet.withUnsafeBytes { try FileDescriptor(rawValue: fd).write($0) }
            if n != packet.count {
                throw LiveError(
                    source: name, .io, "writing to the controller failed: \(n) of \(packet.count) bytes written")
            }
        } catch let e as LiveError {
            throw e
        } catch {
            throw LiveError(source: name, .io, "writing to the controller failed: \(error)")
        }
    }

    public func receive(timeoutMillis: Int32, stoppable: Bool) throws(LiveError) -> LiveReceive {
        guard fd >= 0 else { throw LiveError(source: name, .disconnected, "the socket is closed") }
        while true {
            if let nothing = try Poll.waitForPacket(
                fd, timeoutMillis: timeoutMillis, stoppable: stoppable, source: name)
            {
                return nothing
            }
            let n: Int
            do {
                n = try readBuffer.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).read(into: $0) }
            } catch let code as Errno {
                if code == .wouldBlock { continue }
                throw LiveError(
                    source: name, code == .operationNotSupportedByDevice ? .disconnected : .io,
                    code == .operationNotSupportedByDevice
                        ? "the controller went away (unplugged, or taken back by the kernel)"
                        : "reading the HCI socket failed: \(code)")
            } catch {
                throw LiveError(source: name, .io, "reading the HCI socket failed: \(error)")
            }
            if n == 0 { throw LiveError(source: name, .disconnected, "the HCI socket was closed") }
            return .packet(Array(readBuffer[0..<n]))
        }
    }

    public func close() {
        if fd >= 0 { try? FileDescriptor(rawValue: fd).close() }
        fd = -1
    }

    deinit { close() }
}
