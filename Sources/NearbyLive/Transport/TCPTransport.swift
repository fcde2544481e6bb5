import NearbySystem

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
        do {
            fd = try StreamSocket.connect(host: host, port: port, timeoutMillis: timeoutMillis).rawValue
        } catch {
            switch error {
            case .resolve(let reason):
                throw LiveError(source: name, .cannotOpen, "cannot resolve \(host): \(reason)")
            case .connect(let e):
                throw LiveError(
                    source: name, .cannotOpen,
                    "cannot connect to \(host) port \(port): \(e) (is a controller served "
                        + "there? For Bumble's virtual controllers: python3 -m bumble.apps.controllers "
                        + "tcp-server:\(host):\(port) …)")
            }
        }
    }

    public func send(_ packet: [UInt8]) throws(LiveError) {
        guard fd >= 0 else { throw LiveError(source: name, .disconnected, "the connection is closed") }
        do {
            try packet.withUnsafeBytes { try StreamSocket.send(FileDescriptor(rawValue: fd), $0) }
        } catch let e as Errno {
            throw LiveError(
                source: name, e == .brokenPipe || e == .connectionReset ? .disconnected : .io,
                "sending to the controller failed: \(e)")
        } catch {
            throw LiveError(source: name, .io, "sending to the controller failed: \(error)")
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
            let n: Int
            do {
                n = try readBuffer.withUnsafeMutableBytes {
                    try StreamSocket.receive(FileDescriptor(rawValue: fd), into: $0)
                }
            } catch let e as Errno {
                throw LiveError(
                    source: name, e == .connectionReset ? .disconnected : .io,
                    "reading from the controller failed: \(e)")
            } catch {
                throw LiveError(source: name, .io, "reading from the controller failed: \(error)")
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
        if fd >= 0 { try? FileDescriptor(rawValue: fd).close() }
        fd = -1
    }

    deinit { close() }
}
