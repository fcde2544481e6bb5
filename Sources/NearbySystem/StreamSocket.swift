#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected TCP socket: connect with a deadline, send without SIGPIPE, receive.
public enum StreamSocket {
    /// Why a connection could not be made.
    public enum ConnectError: Error, Sendable, CustomStringConvertible {
        /// The host name could not be resolved: the resolver's message.
        case resolve(String)
        /// No address of the host took the connection: the last address's error
        /// (`.timedOut` when the deadline passed).
        case connect(Errno)

        public var description: String {
            switch self {
            case .resolve(let reason): reason
            case .connect(let e): e.description
            }
        }
    }

    /// Connects to `host` (a name or an address) on `port`, trying each address the
    /// resolver gives until one takes the connection within `timeoutMillis`; the socket is
    /// blocking, close-on-exec, with Nagle's algorithm off, and never raises SIGPIPE.
    public static func connect(host: String, port: UInt16, timeoutMillis: Int32) throws(ConnectError) -> FileDescriptor
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else { throw .resolve(String(cString: gai_strerror(lookup))) }
        defer { freeaddrinfo(list) }
        var lastError = Errno.noSuchAddressOrDevice
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let a = candidate {
            candidate = a.pointee.ai_next
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            guard s >= 0 else {
                lastError = Errno(rawValue: errno)
                continue
            }
            _ = fcntl(s, F_SETFD, FD_CLOEXEC)
            if let e = connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen, timeoutMillis: timeoutMillis) {
                lastError = e
                close(s)
                continue
            }
            var one: Int32 = 1
            setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return FileDescriptor(rawValue: s)
        }
        throw .connect(lastError)
    }

    /// Connects `s` to `address` within `timeoutMillis`; nil on success, else the error.
    private static func connect(
        _ s: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeoutMillis: Int32
    ) -> Errno? {
        let flags = fcntl(s, F_GETFL)
        _ = fcntl(s, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(s, F_SETFL, flags) }
        if systemConnect(s, address, length) == 0 { return nil }
        guard errno == EINPROGRESS else { return Errno(rawValue: errno) }
        guard case .ready = Readiness.wait([FileDescriptor(rawValue: s)], writable: true, timeoutMillis: timeoutMillis)
        else { return .timedOut }
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(s, SOL_SOCKET, SO_ERROR, &code, &size)
        return code == 0 ? nil : Errno(rawValue: code)
    }

    /// Sends all of `bytes` on the connected socket `socket`, retrying when interrupted;
    /// a closed connection is `.brokenPipe` or `.connectionReset`, never SIGPIPE.
    public static func send(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        #if canImport(Darwin)
        let flags: Int32 = 0  // SO_NOSIGPIPE is set on the socket
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        while sent < bytes.count {
            let n = systemSend(socket.rawValue, bytes.baseAddress! + sent, bytes.count - sent, flags)
            if n < 0 {
                if errno == EINTR { continue }
                throw Errno(rawValue: errno)
            }
            sent += n
        }
    }

    /// Receives up to `buffer.count` bytes from `socket`, retrying when interrupted; 0 when
    /// the peer closed the connection.
    public static func receive(
        _ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer
    ) throws(Errno) -> Int {
        while true {
            let n = recv(socket.rawValue, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno != EINTR { throw Errno(rawValue: errno) }
        }
    }
}

/// `connect(2)` and `send(2)` (the C functions, which `StreamSocket`'s own hide).
private func systemConnect(_ s: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(s, address, length)
}

private func systemSend(_ s: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(s, bytes, count, flags)
}
