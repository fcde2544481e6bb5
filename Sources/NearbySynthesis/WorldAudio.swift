import NearbyAudio

extension World {
    /// What the observer's microphone hears (docs/synthesis.md, "Audio"): white noise at a
    /// steady level and the NUT v1 frames of each broadcaster (docs/spec/nut-audio.md), written
    /// as one sound file of the world's duration whose first sample is at scenario time 0.
    public struct Audio: Sendable {
        /// The file's container and sample encoding (16-bit PCM either way).
        public enum Container: String, Sendable { case flac, wav }

        /// Sample rate, Hz (44 100 … 96 000).
        public var sampleRate: Int = 48_000
        /// RMS level of the white noise over the whole band, dBFS (−120 … −20).
        public var noiseDbfs: Double = -70
        public var container: Container = .flac
        public var broadcasters: [Broadcaster] = []

        public init() {}
    }

    /// A phone playing one token as NUT v1 frames, back to back with 50–150 ms gaps
    /// (docs/spec/nut-audio.md, repetition), while [from, until) covers the whole frame.
    public struct Broadcaster: Sendable {
        public var name: String
        public var token: [UInt8]
        public var mode: AudioMode
        /// Frame peak level at the microphone, dBFS (−130 … −6).
        public var levelDbfs: Double
        public var from: Int64
        public var until: Int64?

        public init(
            name: String, token: [UInt8], mode: AudioMode, levelDbfs: Double, from: Int64 = 0, until: Int64? = nil
        ) {
            self.name = name
            self.token = token
            self.mode = mode
            self.levelDbfs = levelDbfs
            self.from = from
            self.until = until
        }
    }
}
