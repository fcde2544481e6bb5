/// Merges the frames of each (token, mode) into sighting intervals (NUT-54):
/// a token is lost when no frame of it has ended for `lostTimeout` seconds (10 s by
/// default, whispernet's broadcaster-stopped threshold).
public struct AudioSightingIntervals {
    public struct Interval: Sendable, Equatable {
        public var token: [UInt8]
        public var mode: AudioMode
        /// Start of the first frame, seconds.
        public var firstSeen: Double
        /// End of the last frame, seconds.
        public var lastSeen: Double
        public var frames: Int
        public var maxSnrDb: Double
    }

    public var lostTimeout: Double
    private var open: [Interval] = []
    private var closed: [Interval] = []

    public init(lostTimeout: Double = 10) { self.lostTimeout = lostTimeout }

    /// Adds a frame (frames must come in order of start time).
    public mutating func add(_ frame: AudioTokenFrame) {
        if let i = open.firstIndex(where: { $0.token == frame.token && $0.mode == frame.mode }) {
            if frame.end - open[i].lastSeen <= lostTimeout {
                open[i].lastSeen = max(open[i].lastSeen, frame.end)
                open[i].frames += 1
                open[i].maxSnrDb = max(open[i].maxSnrDb, frame.snrDb)
                return
            }
            closed.append(open.remove(at: i))
        }
        open.append(
            Interval(
                token: frame.token, mode: frame.mode, firstSeen: frame.start, lastSeen: frame.end,
                frames: 1, maxSnrDb: frame.snrDb))
    }

    /// All intervals, ordered by first sighting, then mode and token.
    public func intervals() -> [Interval] {
        (closed + open).sorted {
            if $0.firstSeen != $1.firstSeen { return $0.firstSeen < $1.firstSeen }
            if $0.mode != $1.mode { return $0.mode < $1.mode }
            return $0.token.lexicographicallyPrecedes($1.token)
        }
    }
}
