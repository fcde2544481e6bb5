#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Linux's raw HCI sockets (`AF_BLUETOOTH`, `BTPROTO_HCI`): the monitor channel, which
/// sees every controller's traffic, and the user channel, which takes one controller from
/// the kernel. Other systems have none: `open` throws `.addressFamilyNotSupported` there, as
/// Linux does without its bluetooth module.
public enum BluetoothHCISocket {
    /// The channel to bind.
    public enum Channel: Sendable, Equatable {
        /// The monitor channel: a copy of every controller's traffic, the kernel keeping the
        /// controllers.
        case monitor
        /// Controller `index` (hci0 is 0).
        case user(index: UInt16)
    }

    static let addressFamily: Int32 = 31  // AF_BLUETOOTH
    static let protocolHCI: Int32 = 1  // BTPROTO_HCI
    static let deviceNone: UInt16 = 0xFFFF  // HCI_DEV_NONE

    /// Why `open` failed, at which step.
    public struct OpenError: Error, Sendable {
        /// The call that failed: `socket` or `bind`.
        public var step: String
        /// The error number the call set.
        public var errno: Errno
    }

    /// A socket bound to `channel`, close-on-exec.
    public static func open(_ channel: Channel) throws(OpenError) -> FileDescriptor {
        #if os(Linux)
        let s = socket(addressFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), protocolHCI)
        guard s >= 0 else { throw OpenError(step: "socket", errno: Errno(rawValue: errno)) }
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev, hci_channel; }
        var address: [UInt16] = [UInt16(addressFamily), deviceNone, 2]
        if case .user(let index) = channel { address = [UInt16(addressFamily), index, 1] }
        let bound = address.withUnsafeBytes {
            bind(s, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        guard bound == 0 else {
            let e = Errno(rawValue: errno)
            close(s)
            throw OpenError(step: "bind", errno: e)
        }
        return FileDescriptor(rawValue: s)
        #else
        throw OpenError(step: "socket", errno: .addressFamilyNotSupported)
        #endif
    }
}
