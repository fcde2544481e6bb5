@_exported import SystemPackage

// The C library this module reaches: glibc, musl or Darwin's libSystem. Every other module
// of the package reaches the system through this one (and swift-system, which it exports).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("NearbySystem: a C library other than glibc, musl or Darwin's is not supported")
#endif

/// The C library the package was built against, for reports and for the tests that hold
/// the platform branches apart.
public enum CLibrary: String, Sendable {
    /// The GNU C library (Linux).
    case glibc
    /// musl (Linux).
    case musl
    /// Darwin's libSystem (macOS and Apple's other systems).
    case darwin

    /// The C library of this build.
    public static var current: CLibrary {
        #if canImport(Glibc)
        .glibc
        #elseif canImport(Musl)
        .musl
        #else
        .darwin
        #endif
    }
}
