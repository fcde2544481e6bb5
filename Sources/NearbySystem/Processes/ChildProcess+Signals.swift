#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ending the implementation, and what it left behind, when this process gets SIGINT or
/// SIGTERM.
extension ChildProcess {
    /// Held while an implementation starts; the thread that ends this process on a signal
    /// takes it and never gives it back, so that no implementation starts behind its back.
    nonisolated(unsafe) static let starting: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// The pipe on which the signal handler hands the signal's number to the thread that
    /// ends this process (-1 before `endOnSignals`).
    nonisolated(unsafe) static var signalReader: Int32 = -1
    nonisolated(unsafe) static var signalWriter: Int32 = -1

    /// Makes SIGINT and SIGTERM end the running implementation's process group at once, then
    /// every process it left behind (`OrphanReaper.endAdopted`), then this process, with status
    /// 128 + the signal as a shell reports it. The processes left behind are found in /proc,
    /// which a signal handler cannot read (it may make only async-signal-safe calls): a thread
    /// of its own ends them, woken through a pipe.
    public static func endOnSignals() {
        _ = running  // initialised here, not in the handler
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            signalReader = ends[0]
            signalWriter = ends[1]
            #if canImport(Darwin)
            var thread: pthread_t? = nil
            #else
            var thread = pthread_t()
            #endif
            let started = pthread_create(
                &thread, nil,
                { _ in
                    ChildProcess.endOnSignal()
                    return nil
                }, nil)
            if started == 0 {
                #if canImport(Darwin)
                if let thread { pthread_detach(thread) }
                #else
                pthread_detach(thread)
                #endif
            } else {
                signalWriter = -1
            }
        }
        let handler: @convention(c) (Int32) -> Void = { signal in
            let group = ChildProcess.running
            if group > 0 {
                kill(-group, SIGKILL)
            }
            var number = UInt8(truncatingIfNeeded: signal)
            if ChildProcess.signalWriter < 0 || write(ChildProcess.signalWriter, &number, 1) != 1 {
                _exit(128 + signal)
            }
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may have started this process with them blocked (the mask is inherited).
        Signals.unblock([SIGINT, SIGTERM])
    }

    /// The watching thread: waits for a signal's number, then ends the implementation, its
    /// orphans and this process.
    static func endOnSignal() {
        var number: UInt8 = 0
        while read(signalReader, &number, 1) != 1 {
            if errno != EINTR {
                signalWriter = -1  // the handler then ends this process itself
                return
            }
        }
        pthread_mutex_lock(starting)
        let group = running
        if group > 0 {
            kill(-group, SIGKILL)
        }
        OrphanReaper.endAdopted(grace: 1)
        _exit(128 + Int32(number))
    }
}
