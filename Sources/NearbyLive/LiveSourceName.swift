/// A live source of HCI traffic, named as Bumble names its transports:
///
/// - `tcp-client:HOST:PORT`: an HCI controller served over TCP as H4 (Bumble's
///   `bumble.apps.controllers tcp-server:…`, an emulator's netsim); this program is its host.
/// - `hci-monitor`: Linux's HCI monitor channel, the socket `btmon` reads: the traffic of
///   every controller of the machine, read only (needs `CAP_NET_RAW`).
/// - `hci-user:N`: Linux's HCI user channel on controller N (`hciN`), which the kernel
///   must have released (`hciconfig hciN down`); this program is its host (needs
///   `CAP_NET_ADMIN`).
public enum LiveSourceName: Hashable, Sendable, CustomStringConvertible {
    case tcpClient(host: String, port: UInt16)
    case hciMonitor
    case hciUser(index: UInt16)

    /// Reads `text`; throws with the forms it accepts when it is none of them.
    public init(_ text: String) throws(LiveError) {
        let usage =
            "name a live source as tcp-client:HOST:PORT (a controller served over TCP, as by Bumble), "
            + "hci-monitor (Linux's monitor channel) or hci-user:N (Linux's user channel on hciN)"
        if text == "hci-monitor" {
            self = .hciMonitor
            return
        }
        if text.hasPrefix("hci-user:") {
            guard let n = UInt16(text.dropFirst("hci-user:".count)), n < 0xFFFF else {
                throw LiveError(source: text, .badName, "hci-user takes a controller number (0 for hci0): \(usage)")
            }
            self = .hciUser(index: n)
            return
        }
        if text.hasPrefix("tcp-client:") {
            let rest = text.dropFirst("tcp-client:".count)
            // HOST may be an IPv6 address in brackets: tcp-client:[::1]:9101.
            guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]),
                port > 0
            else {
                throw LiveError(source: text, .badName, "tcp-client takes HOST:PORT, PORT 1-65535: \(usage)")
            }
            var host = String(rest[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else {
                throw LiveError(source: text, .badName, "tcp-client takes HOST:PORT: \(usage)")
            }
            self = .tcpClient(host: host, port: port)
            return
        }
        throw LiveError(source: text, .badName, usage)
    }

    public var description: String {
        switch self {
        case .tcpClient(let host, let port): "tcp-client:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .hciMonitor: "hci-monitor"
        case .hciUser(let index): "hci-user:\(index)"
        }
    }

    /// True when this program is the controller's host and drives it (resets it and
    /// starts scanning); false for the monitor channel, which only watches.
    public var drivesController: Bool {
        if case .hciMonitor = self { return false }
        return true
    }
}
