import NearbySystem

/// A progress line on standard error, redrawn in place, shown only when standard error is a
/// terminal (never in logs or pipes).
struct ProgressLine: Sendable {
    let shown = StandardStreams.isTerminal(2)

    /// Replaces the line with `text`.
    func show(_ text: String) {
        if shown { FileDescriptorOutput.write("\r\u{1B}[K" + text, fd: 2) }
    }

    /// Clears the line.
    func clear() {
        if shown { FileDescriptorOutput.write("\r\u{1B}[K", fd: 2) }
    }
}
