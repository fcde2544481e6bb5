/// Decodes NUT v1 frames from a sound file (NUT-32 to NUT-36, NUT-46 to NUT-52): every channel through
/// a demodulator per mode, in blocks of `blockFrames` frames, so memory does not grow with
/// the recording. Frames of the same token and mode on several channels whose starts lie
/// within 50 ms are one frame (the one with the highest SNR is kept: NUT-55). Frames come out in
/// order of start time (then mode, token, channel), each once it can no longer be
/// preceded by a later decision.
public struct AudioFileDecoder {
    public var modes: [AudioMode]
    public var blockFrames: Int
    /// The lowest sample rate accepted, Hz (NUT-32, NUT-33).
    public static let minimumSampleRate = 44_100
    /// Same token and mode on two channels within this many seconds: one frame (NUT-55).
    public static let channelMergeWindow = 0.050

    public init(modes: [AudioMode] = [.inaudible, .audible], blockFrames: Int = 16_384) {
        self.modes = modes
        self.blockFrames = blockFrames
    }

    /// What was read, and what was wrong with the samples (decoding goes on regardless).
    public struct Summary: Sendable, Equatable {
        public var sampleRate = 0
        public var channels = 0
        /// Frames (one sample per channel) read.
        public var sampleFrames: Int64 = 0
        /// NaN or infinite samples, decoded as 0.
        public var nonFiniteSamples = 0
        /// Samples at or beyond full scale (|x| ≥ 1): the recording clipped.
        public var clippedSamples = 0
        /// Token frames reported.
        public var tokenFrames = 0
        /// Why samples the file's header declares could not be decoded (the file was cut
        /// short, or could not be read to its end), or nil when all were.
        public var samplesMissing: String?

        public var seconds: Double { sampleRate > 0 ? Double(sampleFrames) / Double(sampleRate) : 0 }
    }

    /// Decodes `path`: its CRC-valid frames in order, and what was read. Throws when the file
    /// cannot be opened as audio or its sample rate is below 44.1 kHz.
    public func decode(path: String) throws(AudioFileError) -> (frames: [AudioTokenFrame], summary: Summary) {
        var frames: [AudioTokenFrame] = []
        let summary = try decode(path: path) { frames.append($0) }
        return (frames, summary)
    }

    /// Decodes `path`, handing each frame to `emit` in order. Throws when the file cannot be
    /// opened as audio or its sample rate is below 44.1 kHz.
    package func decode(path: String, emit: (AudioTokenFrame) -> Void) throws(AudioFileError) -> Summary {
        let reader = try SoundFileReader(path: path)
        guard reader.sampleRate >= Self.minimumSampleRate else {
            throw AudioFileError(
                path: path, code: .unsupported,
                reason: "sample rate \(reader.sampleRate) Hz is below 44 100 Hz; NUT v1 needs 44.1 kHz or more")
        }
        var summary = Summary(sampleRate: reader.sampleRate, channels: reader.channels)
        var demodulators: [(channel: Int, demodulator: any StridedAudioDemodulator)] = []
        for channel in 0..<reader.channels {
            for mode in modes {
                let d: any StridedAudioDemodulator =
                    mode == .audible
                    ? AudibleDemodulator(sampleRate: reader.sampleRate)
                    : InaudibleDemodulator(sampleRate: reader.sampleRate)
                demodulators.append((channel, d))
            }
        }
        var merger = ChannelMerger()
        var buffer: [Float] = []
        let channels = reader.channels
        while true {
            let count = reader.read(into: &buffer, frames: blockFrames)
            if count == 0 { break }
            let samples = count * channels
            for i in 0..<samples {
                let x = buffer[i]
                // NUT-35, NUT-36: non-finite samples decode as 0, clipped ones as they are.
                if !x.isFinite {
                    buffer[i] = 0
                    summary.nonFiniteSamples += 1
                } else if abs(x) >= 1 {
                    summary.clippedSamples += 1
                }
            }
            buffer.withUnsafeBufferPointer { p in
                for (channel, d) in demodulators {
                    d.process(p.baseAddress! + channel, count: count, stride: channels)
                    merger.add(d.takeFrames(), channel: channel)
                }
            }
            summary.sampleFrames += Int64(count)
            summary.tokenFrames += merger.release(before: summary.seconds - ChannelMerger.horizon, emit)
        }
        if let cut = reader.cutShort {
            summary.samplesMissing = cut
        } else if summary.sampleFrames < reader.frameCount {
            summary.samplesMissing = "\(summary.sampleFrames) of the \(reader.frameCount) frames could be read"
        }
        for (channel, d) in demodulators {
            d.finish()
            merger.add(d.takeFrames(), channel: channel)
        }
        summary.tokenFrames += merger.release(before: .infinity, emit)
        return summary
    }
}

/// Holds decided frames until no earlier one can still come, merging channel duplicates.
struct ChannelMerger {
    /// Decisions lag the stream by at most the longest frame, the decision window, the
    /// statistic's look-ahead and margins: frames starting this long before the stream's end
    /// are final.
    static let horizon = 8.0
    private var pending: [AudioTokenFrame] = []

    mutating func add(_ frames: [AudioTokenFrame], channel: Int) {
        for var frame in frames {
            frame.channel = channel
            if let i = pending.firstIndex(where: {
                $0.mode == frame.mode && $0.token == frame.token && $0.channel != frame.channel
                    && abs($0.start - frame.start) <= AudioFileDecoder.channelMergeWindow
            }) {
                if frame.snrDb > pending[i].snrDb { pending[i] = frame }
            } else {
                pending.append(frame)
            }
        }
    }

    /// The output order: start time, mode, token, channel.
    static func precedes(_ a: AudioTokenFrame, _ b: AudioTokenFrame) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.mode != b.mode { return a.mode < b.mode }
        if a.token != b.token { return a.token.lexicographicallyPrecedes(b.token) }
        return a.channel < b.channel
    }

    /// Emits, in order, the frames starting before `time`; returns how many.
    mutating func release(before time: Double, _ emit: (AudioTokenFrame) -> Void) -> Int {
        pending.sort(by: Self.precedes)
        var released = 0
        while let first = pending.first, first.start < time {
            emit(first)
            pending.removeFirst()
            released += 1
        }
        return released
    }
}
