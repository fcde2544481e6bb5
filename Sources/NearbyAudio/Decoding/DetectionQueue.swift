/// A preamble detection: where (a sample index of the demodulator's stream) and how strong.
protocol Detection {
    var index: Int { get }
    var statistic: Float { get }
}

/// The decision rule both demodulators share (docs/spec/nut-audio.md, "Decisions"): the strongest
/// detection within `window` samples of the earliest pending one, followed forward while a
/// stronger one lies within `window` of it, is decided next; once decided, the detections
/// around it are suppressed.
struct DetectionQueue<Item: Detection> {
    var pending: [Item] = []
    let window: Int

    init(window: Int) { self.window = window }

    /// The next detection to decide, and the index up to which detections had to be known
    /// to choose it; nil when none is pending. `ready(chosen, limit)` says whether the data
    /// is in to decide it now (always true at the end of the stream).
    mutating func next(ready: (Item, Int) -> Bool) -> Item? {
        pending.sort { $0.index < $1.index }
        guard let first = pending.first else { return nil }
        var best = 0
        var limit = first.index + window
        var i = 1
        while i < pending.count && pending[i].index <= limit {
            if pending[i].statistic > pending[best].statistic {
                best = i
                limit = pending[i].index + window
            }
            i += 1
        }
        return ready(pending[best], limit) ? pending[best] : nil
    }

    /// Drops the detections with index in from…to.
    mutating func suppress(from: Int, to: Int) {
        pending.removeAll { $0.index >= from && $0.index <= to }
    }
}

/// Calls `body(offset, count)` over 0..<count in slices of at most `slice`, so that a
/// demodulator's histories (a few seconds) never wrap within one step.
@inline(__always)
func inSlices(_ count: Int, of slice: Int, _ body: (Int, Int) -> Void) {
    var done = 0
    while done < count {
        let n = min(slice, count - done)
        body(done, n)
        done += n
    }
}
