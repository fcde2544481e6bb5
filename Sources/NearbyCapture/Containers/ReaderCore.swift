/// What every container reader keeps beside its source: records and faults are numbered in
/// the order they are reported, and damage found ahead of a record waits here to be
/// reported before it.
struct ReaderCore {
    /// The number of the last record or fault reported.
    private(set) var index = 0
    /// Damage to report, in order, before reading on.
    var faults: [ContainerFault] = []

    /// The number of the record or fault reported now.
    @inline(__always)
    mutating func number() -> Int {
        index += 1
        return index
    }

    /// The malformed step for `fault`, numbered next.
    mutating func report(_ fault: ContainerFault) -> CaptureReadStep {
        var numbered = fault
        numbered.index = number()
        return .malformed(numbered)
    }

    /// The first fault waiting, reported; nil when none is.
    @inline(__always)
    mutating func reportWaiting() -> CaptureReadStep? {
        faults.isEmpty ? nil : report(faults.removeFirst())
    }

    /// Queues `found` (not empty) and reports the first fault waiting.
    mutating func report(queuing found: ContainerFault) -> CaptureReadStep {
        faults.append(found)
        return report(faults.removeFirst())
    }
}
