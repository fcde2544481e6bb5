#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte and string routines, for the loops where they are faster than a
/// Swift loop (they are vectorised).
public enum CMemory {
    /// The offset of the first byte equal to `byte` in `bytes`, or nil (`memchr(3)`).
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The length of the nul-terminated string at `text` (`strlen(3)`).
    @inlinable
    public static func length(of text: UnsafePointer<CChar>) -> Int { strlen(text) }

    /// Whether the nul-terminated strings at `a` and `b` are equal (`strcmp(3)`).
    @inlinable
    public static func equal(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Bool { strcmp(a, b) == 0 }
}
