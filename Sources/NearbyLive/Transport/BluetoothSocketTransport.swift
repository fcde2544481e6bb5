#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Linux's HCI sockets (`AF_BLUETOOTH`, `BTPROTO_HCI`; BlueZ `lib/bluetooth/hci.h`):
///
/// - the monitor channel (`HCI_CHANNEL_MONITOR`, 2): every controller's traffic as `btmon`
///   sees it, read only; each read is a monitor header (opcode, controller index, length:
///   little-endian 16-bit) and its payload. Needs `CAP_NET_RAW`.
/// - the user channel (`HCI_CHANNEL_USER`, 1) on one controller the kernel has released:
///   exclusive, each read or write is one H4 packet. Needs `CAP_NET_ADMIN`.
public final class BluetoothSocketTransport: HCITransport {
    public enum Channel: Sendable, Equatable {
        case monitor
        case user(index: UInt16)
    }

    static let addressFamily: Int32 = 31  // AF_BLUETOOTH
    static let protocolHCI: Int32 = 1  // BTPROTO_HCI
    static let deviceNone: UInt16 = 0xFFFF  // HCI_DEV_NONE

    private var fd: Int32
    private let name: String
    private let channel: Channel
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16 + 16)

    public init(_ channel: Channel, name: String) throws(LiveError) {
        self.name = name
        self.channel = channel
        let capability = channel == .monitor ? "CAP_NET_RAW" : "CAP_NET_ADMIN"
        let s = socket(Self.addressFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Self.protocolHCI)
        guard s >= 0 else {
            let code = errno
            switch code {
            case EAFNOSUPPORT, EPROTONOSUPPORT:
                throw LiveError(
                    source: name, .unavailable,
                    "this system has no Bluetooth sockets (AF_BLUETOOTH: the kernel's bluetooth module is not "
                        + "loaded, or this is a container or VM without it)")
            case EPERM, EACCES:
                throw LiveError(source: name, .permission, Self.privilegeAdvice(capability, code))
            default:
                throw LiveError(source: name, .cannotOpen, "cannot open an HCI socket: \(Poll.errorText(code))")
            }
        }
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev, hci_channel; }
        var address: [UInt16] = [UInt16(Self.addressFamily), Self.deviceNone, 2]
        if case .user(let index) = channel { address = [UInt16(Self.addressFamily), index, 1] }
        let bound = address.withUnsafeBytes {
            bind(s, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(s)
            switch (code, channel) {
            case (EPERM, _), (EACCES, _):
                throw LiveError(source: name, .permission, Self.privilegeAdvice(capability, code))
            case (EBUSY, .user(let index)), (EALREADY, .user(let index)):
                throw LiveError(
                    source: name, .cannotOpen,
                    "hci\(index) is in use by the kernel: release it first (sudo hciconfig hci\(index) down, "
                        + "or sudo btmgmt --index \(index) power off)")
            case (ENODEV, .user(let index)):
                throw LiveError(source: name, .unavailable, "there is no controller hci\(index) (hciconfig lists them)")
            default:
                throw LiveError(source: name, .cannotOpen, "cannot bind the HCI socket: \(Poll.errorText(code))")
            }
        }
        fd = s
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
        let n = packet.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n != packet.count {
            throw LiveError(source: name, .io, "writing to the controller failed: \(Poll.errorText(errno))")
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
            let n = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                let code = errno
                throw LiveError(
                    source: name, code == ENODEV ? .disconnected : .io,
                    code == ENODEV
                        ? "the controller went away (unplugged, or taken back by the kernel)"
                        : "reading the HCI socket failed: \(Poll.errorText(code))")
            }
            if n == 0 { throw LiveError(source: name, .disconnected, "the HCI socket was closed") }
            return .packet(Array(readBuffer[0..<n]))
        }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
