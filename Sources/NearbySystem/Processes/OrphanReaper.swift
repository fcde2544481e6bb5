import CProcessControl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends the processes an implementation leaves behind: descendants that left its process
/// group (`setsid`, `setpgid`), so that killing the group misses them, and that outlive it
/// (INTEROP-6).
///
/// It acts only in a process that is a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`, which
/// `nearby-conformance validate` sets at its start): such a process inherits every orphan
/// among its descendants instead of init, so an implementation's leftovers stay its
/// descendants and can be found in /proc. It takes every descendant for an implementation's,
/// so it suits only a process that starts no other children. A process that is not a
/// subreaper ends only the implementation's process group: the Swift Testing process, which
/// runs `ValidateSession` in process beside other tests' children (making it a subreaper
/// would change where every orphan of every test goes), and platforms without subreapers.
public enum OrphanReaper {
    /// Makes this process a child subreaper (`adopts` then holds); false where the system
    /// has none (outside Linux).
    @discardableResult
    public static func adoptOrphans() -> Bool { nearby_set_child_subreaper() == 0 }

    /// Whether this process is a child subreaper, so that its implementations' orphans are its
    /// descendants.
    public static var adopts: Bool { nearby_is_child_subreaper() != 0 }

    /// Ends every descendant of this process except `sparing` (an implementation still in use,
    /// 0 for none) and its descendants: SIGTERM first, SIGKILL to each still there after
    /// `grace` seconds, then waits for them; the zombies among its own children are reaped
    /// (`waitpid` by pid, never -1, so no other wait is robbed of its status). Gives up 2 s
    /// after the grace period (a process stuck in the kernel). Does nothing unless `adopts`.
    public static func endAdopted(sparing: pid_t = 0, grace: Double = 1) {
        guard adopts else { return }
        let me = getpid()
        let killAt = ChildProcess.now() + grace
        let giveUpAt = killAt + 2
        var terminated: Set<pid_t> = []
        while true {
            let live = descendants(of: me, sparing: sparing)
            if live.isEmpty { return }
            let now = ChildProcess.now()
            if now >= giveUpAt { return }
            for p in live where now >= killAt || !terminated.contains(p) {
                kill(p, now >= killAt ? SIGKILL : SIGTERM)
                terminated.insert(p)
            }
            usleep(10_000)
        }
    }

    /// The live (not zombie) descendants of `root` but `sparing` and its descendants, from
    /// /proc/PID/stat; zombies that are `root`'s children are reaped on the way.
    static func descendants(of root: pid_t, sparing: pid_t) -> [pid_t] {
        var children: [pid_t: [(pid: pid_t, zombie: Bool)]] = [:]
        for name in (try? FileSystem.entries(of: "/proc")) ?? [] {
            guard let p = pid_t(name), let (state, parent) = status(of: p) else { continue }
            children[parent, default: []].append((p, state == "Z" || state == "X"))
        }
        var live: [pid_t] = []
        var queue = [root]
        while let parent = queue.popLast() {
            for child in children[parent] ?? [] where child.pid != sparing {
                if child.zombie {
                    if parent == root {
                        var status: Int32 = 0
                        _ = waitpid(child.pid, &status, WNOHANG)
                    }
                } else {
                    live.append(child.pid)
                }
                queue.append(child.pid)
            }
        }
        return live
    }

    /// The state letter and parent of `member` (fields 3 and 4 of /proc/PID/stat), or nil.
    static func status(of member: pid_t) -> (state: Character, parent: pid_t)? {
        guard let text = ChildProcess.contents("/proc/\(member)/stat"), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return (state, parent)
    }
}
