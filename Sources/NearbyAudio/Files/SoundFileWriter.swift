import CSndFile

/// Writes a sound file with libsndfile: WAV (16-bit PCM or 32-bit float) or FLAC (16-bit),
/// chosen from the file name's extension and `encoding`. Samples are Float in ±1.0; values
/// beyond full scale are clipped when the encoding is integer (`SFC_SET_CLIPPING`).
public final class SoundFileWriter {
    /// How samples are stored.
    public enum Encoding: String, Sendable, CaseIterable {
        case pcm16 = "pcm16"
        case float32 = "float"
    }

    public let path: String
    public let channels: Int
    private var handle: OpaquePointer?

    public init(path: String, sampleRate: Int, channels: Int = 1, encoding: Encoding = .pcm16) throws(AudioFileError) {
        self.path = path
        self.channels = channels
        let lower = path.lowercased()
        var format: Int32
        if lower.hasSuffix(".flac") {
            guard encoding == .pcm16 else {
                throw AudioFileError(
                    path: path, code: .unwritable, reason: "FLAC stores integer samples only; use WAV for float")
            }
            format = Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)
        } else if lower.hasSuffix(".wav") {
            format =
                Int32(SF_FORMAT_WAV)
                | (encoding == .pcm16 ? Int32(SF_FORMAT_PCM_16) : Int32(SF_FORMAT_FLOAT))
        } else {
            throw AudioFileError(path: path, code: .unwritable, reason: "the file name must end in .wav or .flac")
        }
        guard sampleRate > 0, channels > 0 else {
            throw AudioFileError(
                path: path, code: .unwritable, reason: "cannot write \(channels) channels at \(sampleRate) Hz")
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError(
                path: path, code: .unwritable, reason: "cannot create the file (\(String(cString: sf_strerror(nil))))")
        }
        self.handle = handle
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
    }

    /// Appends interleaved frames (`samples.count` must be a multiple of `channels`).
    public func write(_ samples: [Float]) throws(AudioFileError) {
        guard let handle else {
            throw AudioFileError(path: path, code: .unwritable, reason: "the file is already closed")
        }
        let frames = samples.count / channels
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        guard written == frames else {
            throw AudioFileError(
                path: path, code: .unwritable, reason: "short write (\(String(cString: sf_strerror(handle))))")
        }
    }

    /// Finishes the file (writes the header's sizes). Further writes fail.
    public func close() throws(AudioFileError) {
        guard let handle else { return }
        self.handle = nil
        if sf_close(handle) != 0 { throw AudioFileError(path: path, code: .unwritable, reason: "closing failed") }
    }

    deinit { if let handle { sf_close(handle) } }
}
