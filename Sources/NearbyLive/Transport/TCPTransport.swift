#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HCI controller served over TCP as an H4 byte stream (Bumble's `tcp-server`
/// transport, an emulator's netsim): this program connects as its host.
public final class TCPTransport: HCITransport {
    private var fd: Int32
    private let name: String
    private var framer = H4StreamFramer()
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)

    /// Connects to `host`:`port` (a name or a numeric address, IPv4 or IPv6), waiting at most
    /// `timeoutMillis` for each address tried.
    public init(host: String, port: UInt16, name: String, timeoutMillis: Int32 = 5000) throws(LiveError) {
        self.name = name
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else {
            throw LiveError(
                source: name, .cannotOpen, "cannot resolve \(host): \(String(cString: gai_strerror(lookup)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        var connected: Int32 = -1
        while let a = candidate, connected < 0 {
            candidate = a.pointee.ai_next
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            guard s >= 0 else {
                lastError = errno
                continue
            }
            if Self.connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen, timeoutMillis: timeoutMillis, error: &lastError)
            {
                connected = s
            } else {
                Glibc.close(s)
            }
        }
        guard connected >= 0 else {
            throw LiveError(
                source: name, .cannotOpen,
                "cannot connect to \(host) port \(port): \(Poll.errorText(lastError)) (is a controller served "
                    + "there? For Bumble's virtual controllers: python3 -m bumble.apps.controllers "
                    + "tcp-server:\(host):\(port) …)")
        }
        fd = connected
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Connects `s` without blocking longer than `timeoutMillis`; leaves `s` blocking.
    private static func connect(
        _ s: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeoutMillis: Int32,
        error: inout Int32
    ) -> Bool {
        let flags = fcntl(s, F_GETFL)
        _ = fcntl(s, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(s, F_SETFL, flags) }
        if Glibc.connect(s, address, length) == 0 { return true }
        guard errno == EINPROGRESS else {
            error = errno
            return false
        }
        var p = pollfd(fd: s, events: Int16(POLLOUT), revents: 0)
        guard poll(&p, 1, timeoutMillis) == 1 else {
            error = ETIMEDOUT
            return false
        }
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(s, SOL_SOCKET, SO_ERROR, &code, &size)
        if code != 0 { error = code }
        return code == 0
    }

    public func send(_ packet: [UInt8]) throws(LiveError) {
        guard fd >= 0 else { throw LiveError(source: name, .disconnected, "the connection is closed") }
        var sent = 0
        while sent < packet.count {
            let n = packet.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw LiveError(
                    source: name, code == EPIPE || code == ECONNRESET ? .disconnected : .io,
                    "sending to the controller failed: \(Poll.errorText(code))")
            }
            sent += n
        }
    }

    public func receive(timeoutMillis: Int32, stoppable: Bool) throws(LiveError) -> LiveReceive {
        guard fd >= 0 else { throw LiveError(source: name, .disconnected, "the connection is closed") }
        while true {
            switch framer.next() {
            case .packet(let p): return .packet(p)
            case .garbage(let offset, let indicator):
                throw LiveError(
                    source: name, .garbage,
                    "the controller sent a byte that starts no H4 packet: 0x\(String(indicator, radix: 16)) at "
                        + "byte \(offset) of the stream (H4 packets start with 0x01-0x05); the stream cannot be "
                        + "framed from there", streamOffset: offset)
            case .needMore: break
            }
            if let nothing = try Poll.waitForPacket(
                fd, timeoutMillis: timeoutMillis, stoppable: stoppable, source: name)
            {
                return nothing
            }
            let n = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw LiveError(
                    source: name, code == ECONNRESET ? .disconnected : .io,
                    "reading from the controller failed: \(Poll.errorText(code))")
            }
            if n == 0 {
                let partial = framer.pending
                throw LiveError(
                    source: name, .disconnected,
                    "the controller closed the connection"
                        + (partial > 0 ? " in the middle of a packet (\(partial) bytes of it received)" : ""))
            }
            readBuffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
