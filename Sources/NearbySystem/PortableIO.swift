/// The switch that turns off every path of this module that only glibc on Linux has, and the
/// mapped form of `StreamWindow`: set `NEARBY_PORTABLE_IO=1` in the environment and the
/// package takes the paths it takes on musl and Darwin, and reads C streams through their
/// library alone, so that those paths are tested where it is built most.
///
/// Off with the switch: reopening a nameless temporary file through `/proc/self/fd`
/// (`TemporaryFile`, which keeps a named file instead), reading `/proc/self/exe` and
/// `/proc/self/status`, and lending a file's bytes where they lie in a mapping
/// (`StreamWindow`, then plain, as for a pipe). Read once, at first use.
public enum PortableIO {
    /// True when `NEARBY_PORTABLE_IO` is `1`.
    public static let isForced: Bool = Environment.value("NEARBY_PORTABLE_IO") == "1"

    /// Whether glibc's own paths are taken: built against glibc and not `isForced`.
    public static var usesGlibcPaths: Bool {
        #if canImport(Glibc)
        !isForced
        #else
        false
        #endif
    }
}
