/// What waiting on a live source gave.
public enum LiveReceive: Sendable {
    /// One packet: for an H4 transport the indicator byte and the packet; for the monitor
    /// channel the monitor header (opcode, index, length: little-endian) and the payload.
    case packet([UInt8])
    /// Nothing arrived in the time given.
    case timeout
    /// SIGINT or SIGTERM asked the session to stop (`StopRequest`).
    case stopRequested
}

/// A connection to a controller (or to the kernel's monitor), one packet at a time.
public protocol HCITransport: AnyObject {
    /// Sends one H4 packet, indicator byte first.
    func send(_ packet: [UInt8]) throws(LiveError)
    /// Waits at most `timeoutMillis` (0…) for the next packet; when `stoppable`, a stop
    /// request ends the wait. Throws when the connection ends or fails, or the bytes cannot
    /// be framed.
    func receive(timeoutMillis: Int32, stoppable: Bool) throws(LiveError) -> LiveReceive
    /// Closes the connection; receiving afterwards is an error. Idempotent.
    func close()
}
