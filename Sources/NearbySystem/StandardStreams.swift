#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error as descriptors: whole writes, and whether one is a
/// terminal.
public enum StandardStreams {
    /// Writes all of `bytes` to `descriptor` (retrying when interrupted); false when it
    /// cannot (a closed pipe: EPIPE when SIGPIPE is ignored).
    @discardableResult
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        (try? FileDescriptor(rawValue: descriptor).writeAll(bytes)) != nil
    }

    /// Whether `descriptor` is a terminal (`isatty(3)`).
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }
}
