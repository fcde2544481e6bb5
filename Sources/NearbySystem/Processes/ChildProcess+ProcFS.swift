#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What /proc (Linux) says of the implementation's process group.
extension ChildProcess {
    /// True when no process of the implementation's group but the `/bin/sh` that started
    /// it still holds the write end of its standard output: the implementation closed it
    /// (or exited) while the shell waits on. Then no reply can come, and a time-out is a
    /// crash. Read from /proc (Linux); false where it cannot be read.
    public func outputClosedBehindShell() -> Bool {
        guard output >= 0, pid > 0, let pipe = try? FileInfo(descriptor: FileDescriptor(rawValue: output)) else {
            return false
        }
        let pipeName = "pipe:[\(pipe.inode)]"
        let holders = ((try? FileSystem.entries(of: "/proc")) ?? []).compactMap { pid_t($0) }.filter { member in
            Self.processGroup(of: member) == pid && Self.holds(member, pipeName)
        }
        return holders == [pid] && Self.command(of: pid).hasSuffix("sh")
    }

    /// The process group of `member` (field 5 of /proc/PID/stat), or nil.
    static func processGroup(of member: pid_t) -> pid_t? {
        guard let text = Self.contents("/proc/\(member)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 2 ? pid_t(fields[2]) : nil
    }

    /// True when one of `member`'s descriptors is the pipe named `pipeName`.
    static func holds(_ member: pid_t, _ pipeName: String) -> Bool {
        ((try? FileSystem.entries(of: "/proc/\(member)/fd")) ?? []).contains { fd in
            (try? FileSystem.linkTarget("/proc/\(member)/fd/\(fd)")) == pipeName
        }
    }

    /// `member`'s command name (/proc/PID/comm, without its newline).
    static func command(of member: pid_t) -> String {
        Self.contents("/proc/\(member)/comm")?.split(separator: "\n").first.map(String.init) ?? ""
    }

    /// The first 4 KiB of the file at `path` as text (the /proc files read here are shorter),
    /// or nil when it cannot be read or is empty.
    static func contents(_ path: String) -> String? {
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: .closeOnExec) else { return nil }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = (try? bytes.withUnsafeMutableBytes { try fd.read(into: $0) }) ?? 0
        return n > 0 ? String(decoding: bytes[0..<n], as: UTF8.self) : nil
    }

    /// Whether the process has exited (without waiting), and how.
    public func exitStatus() -> String? {
        if let e = exited { return Self.describe(e) }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exited = status
            return Self.describe(status)
        }
        return nil
    }
}
