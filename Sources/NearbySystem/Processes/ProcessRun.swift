#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with its output going to files, and reports what it cost: for
/// benchmarks, which time whole commands as users run them.
public enum ProcessRun {
    /// How a run ended and what it cost.
    public struct Result: Sendable {
        /// The wait status (0: exited with status 0).
        public var status: Int32
        /// User plus system CPU time of the child, seconds.
        public var cpuSeconds: Double
        /// `ru_maxrss` as `wait4` reports it, KiB: an upper bound of the child's peak (Linux
        /// carries the parent's peak at the spawn into the child).
        public var peakKiB: Int
    }

    /// Runs `arguments` (the program first: found in `PATH` unless `executable` names the
    /// file to run) with standard output to the file `output` (created or truncated) and
    /// standard error to `errors`; nil when it cannot be started.
    public static func run(
        _ arguments: [String], executable: String? = nil, output: String = "/dev/null", errors: String = "/dev/null"
    ) -> Result? {
        let plan = SpawnPlan()
        plan.open(output, as: 1, flags: O_WRONLY | O_CREAT | O_TRUNC)
        plan.open(errors, as: 2, flags: O_WRONLY | O_CREAT | O_TRUNC)
        guard case .success(let pid) = plan.spawn(arguments, executable: executable) else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss)
        #endif
        return Result(status: status, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakKiB: peak)
    }

    /// The first executable file named `tool` in the folders of `PATH`, or nil.
    public static func which(_ tool: String) -> String? {
        for folder in (Environment.value("PATH") ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileSystem.isAccessible(path, .execute) { return path }
        }
        return nil
    }

    /// This process's peak resident memory, KiB: `VmHWM` of `/proc/self/status` on Linux
    /// (not under `NEARBY_PORTABLE_IO=1`), else `getrusage`'s `ru_maxrss`, which on Linux
    /// includes the peak of the process before its last `execve`.
    public static func ownPeakKiB() -> Int {
        #if os(Linux)
        if PortableIO.usesGlibcPaths, let text = ChildProcess.contents("/proc/self/status") {
            for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                return Int(line.dropFirst(6).filter { $0.isNumber }) ?? 0
            }
        }
        #endif
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if canImport(Darwin)
        return Int(usage.ru_maxrss) / 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }
}
