import CProcessControl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `posix_spawn` starts one process: its file actions (descriptors opened, duplicated and
/// closed in the child, its working directory) and attributes (its process group), released
/// with the value. One place for the types Darwin declares as optional pointers and glibc as
/// structs.
final class SpawnPlan {
    #if canImport(Darwin)
    private var actions: posix_spawn_file_actions_t? = nil
    private var attributes: posix_spawnattr_t? = nil
    #else
    private var actions = posix_spawn_file_actions_t()
    private var attributes = posix_spawnattr_t()
    #endif

    init() {
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
    }

    deinit {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }

    /// Opens `path` as descriptor `descriptor` of the child (created or truncated when written).
    func open(_ path: String, as descriptor: Int32, flags: Int32) {
        posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
    }

    /// Makes the parent's `descriptor` the child's `target`.
    func duplicate(_ descriptor: Int32, as target: Int32) {
        posix_spawn_file_actions_adddup2(&actions, descriptor, target)
    }

    /// Closes `descriptor` in the child.
    func close(_ descriptor: Int32) {
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }

    /// Starts the child in `directory`; false where the C library cannot (ENOSYS).
    func changeDirectory(to directory: String) -> Bool {
        nearby_spawn_add_chdir(&actions, directory) == 0
    }

    /// Starts the child in a process group of its own, whose id is its process id.
    func ownProcessGroup() {
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
    }

    /// Starts `arguments` (the program first, found in `PATH` unless `executable` names the
    /// file), with the environment of this process: the child's id, or the error number.
    func spawn(_ arguments: [String], executable: String? = nil) -> Result<pid_t, Errno> {
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc =
            executable.map { posix_spawn(&pid, $0, &actions, &attributes, argv, ChildProcess.environment) }
            ?? posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, ChildProcess.environment)
        return rc == 0 ? .success(pid) : .failure(Errno(rawValue: rc))
    }
}
