import NearbySystem

/// Process-wide settings a command makes before it starts its work.
enum ProcessSettings {
    /// Makes a write to a pipe whose reader has gone fail with EPIPE instead of ending this
    /// process: for the commands that talk to other implementations (`validate`, `matrix`).
    static func ignoreBrokenPipes() {
        Signals.ignore(Signals.brokenPipe)
    }

    /// Makes this process the reaper of every process it starts (Linux's
    /// `PR_SET_CHILD_SUBREAPER`): an implementation's child that leaves its process group and
    /// outlives it is re-parented to this process, not to init, where `validate` finds and
    /// ends it (INTEROP-6). Only for a command that starts no process but the
    /// implementation; elsewhere than Linux it does nothing, and `validate` ends only the
    /// implementation's process group.
    static func adoptOrphans() {
        OrphanReaper.adoptOrphans()
    }
}
