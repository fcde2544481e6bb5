/// One CRC-valid NUT v1 frame found in a recording: the decoder's output unit
/// (NUT-46 to NUT-52).
public struct AudioTokenFrame: Sendable, Equatable {
    public var token: [UInt8]
    public var mode: AudioMode
    /// File time of the frame's start, seconds: for NUT-I the start of preamble chip 0
    /// (its centre − ½ chip), for NUT-A the chirp's first sample (NUT-47, NUT-48).
    public var start: Double
    /// start + the frame's duration on the received time scale, seconds (NUT-50).
    public var end: Double
    /// Measured time-scale error, parts per million: positive when the frame arrived
    /// compressed (sender's clock fast, or approaching: NUT-51). Within about 20 ppm (NUT-I) or 50 ppm
    /// (NUT-A).
    public var clockOffsetPpm: Double
    /// Estimated in-band SNR, dB (NUT-I: 18.5–20 kHz; NUT-A: 1.1–4.3 kHz), at most
    /// `maximumSnrDb` (a clean synthetic file has no noise to measure).
    public var snrDb: Double

    /// The largest SNR estimate reported, dB.
    public static let maximumSnrDb = 60.0
    /// The preamble detection statistic S (threshold 20 for NUT-I, 25 for NUT-A).
    public var detection: Double
    /// Codeword bytes the Reed–Solomon decoder corrected.
    public var correctedBytes: Int
    /// 0-based channel of the file the frame was decoded from.
    public var channel: Int

    public init(
        token: [UInt8], mode: AudioMode, start: Double, end: Double, clockOffsetPpm: Double,
        snrDb: Double, detection: Double, correctedBytes: Int, channel: Int
    ) {
        self.token = token
        self.mode = mode
        self.start = start
        self.end = end
        self.clockOffsetPpm = clockOffsetPpm
        self.snrDb = snrDb
        self.detection = detection
        self.correctedBytes = correctedBytes
        self.channel = channel
    }
}
