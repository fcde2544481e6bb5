/// Why an implementation could not be started or did not complete the handshake
/// (INTEROP-7, INTEROP-8, INTEROP-11, INTEROP-17). `lastErrorLine` is the last line it wrote on standard error, if any.
public enum HandshakeFault: Error, Sendable, Equatable {
    /// The command could not be run (`reason` from the system).
    case cannotStart(reason: String)
    /// The implementation did not read the handshake request.
    case requestNotRead(lastErrorLine: String?)
    /// No handshake line within the time-out.
    case noHandshake(seconds: Double, lastErrorLine: String?)
    /// It ended (`how`) before the handshake.
    case ended(how: String, lastErrorLine: String?)
    /// A handshake line longer than the limit.
    case tooLong(lastErrorLine: String?)
    /// A line that is not `{"hello": {…}}` (`line`: an excerpt).
    case notAHello(line: String, lastErrorLine: String?)
    /// A protocol version this runner does not speak (`version`: as sent, JSON).
    case protocolUnsupported(version: String, lastErrorLine: String?)
    /// A handshake whose coverage fields are malformed (`reason` names the field).
    case badCoverage(reason: String, lastErrorLine: String?)
    /// A handshake without a non-empty `name` and `version` (`line`: an excerpt).
    case unnamed(line: String, lastErrorLine: String?)

    /// The sentence for people, with the implementation's last error line.
    public var reason: String {
        switch self {
        case .cannotStart(let reason): reason
        case .requestNotRead(let e): "it did not read the handshake" + InteropFault.suffix(e)
        case .noHandshake(let seconds, let e): "no handshake within \(seconds) s" + InteropFault.suffix(e)
        case .ended(let how, let e): "it ended (\(how)) before the handshake" + InteropFault.suffix(e)
        case .tooLong(let e): "a handshake line longer than the limit" + InteropFault.suffix(e)
        case .notAHello(let line, let e): "the handshake is not {\"hello\": {…}}: \(line)" + InteropFault.suffix(e)
        case .protocolUnsupported(let version, let e):
            "protocol \(version) is not supported (this runner speaks 1)" + InteropFault.suffix(e)
        case .badCoverage(let reason, let e): "the handshake's \(reason)" + InteropFault.suffix(e)
        case .unnamed(let line, let e):
            "the handshake has no \"name\" and \"version\" (non-empty strings): \(line)" + InteropFault.suffix(e)
        }
    }
}
