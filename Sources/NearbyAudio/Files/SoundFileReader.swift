import CSndFile

/// Reads any file libsndfile reads (WAV, FLAC, Ogg/Vorbis, AIFF, …) in blocks of frames,
/// as Float samples in ±1.0 whatever the file's bit depth (`sf_readf_float`).
///
/// Memory stays constant: the caller passes the buffer, sized for `frames` × `channels`
/// interleaved samples.
public final class SoundFileReader {
    public let path: String
    /// Frames per second.
    public let sampleRate: Int
    /// Interleaved channels per frame.
    public let channels: Int
    /// Frames in the file, as libsndfile reports them (may be 0 for an empty file).
    public let frameCount: Int64
    /// libsndfile's major format (e.g. `SF_FORMAT_WAV`) and sub-format (e.g. `SF_FORMAT_PCM_16`).
    public let majorFormat: Int32
    public let subFormat: Int32

    /// Why the file holds fewer samples than its header declares (a WAV or AIFF cut short:
    /// libsndfile's log notes a chunk size larger than the file, and reads what is there),
    /// or nil.
    public let cutShort: String?

    private let handle: OpaquePointer

    /// Opens `path`; throws when libsndfile cannot read it (not audio, truncated header, …).
    public init(path: String) throws(AudioFileError) {
        self.path = path
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let message = String(cString: sf_strerror(nil))
            throw AudioFileError(
                path: path, code: .unreadable, reason: "not a sound file libsndfile reads (\(message))")
        }
        self.handle = handle
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        frameCount = Int64(info.frames)
        majorFormat = info.format & Int32(SF_FORMAT_TYPEMASK)
        subFormat = info.format & Int32(SF_FORMAT_SUBMASK)
        cutShort = Self.cutShort(handle)
        guard channels > 0, sampleRate > 0 else {
            sf_close(handle)
            throw AudioFileError(
                path: path, code: .unsupported, reason: "the file declares \(channels) channels at \(sampleRate) Hz")
        }
    }

    deinit { sf_close(handle) }

    /// The chunk libsndfile found larger than the file, from its log (`SFC_GET_LOG_INFO`,
    /// lines such as `data : 709276 (should be 354616)`): the sample data chunk when it is
    /// one of those, else the first.
    static func cutShort(_ handle: OpaquePointer) -> String? {
        var log = [CChar](repeating: 0, count: 8192)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var found: [(chunk: String, declared: String, present: String)] = []
        for line in text.split(separator: "\n") where line.contains("(should be ") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let words = parts[1].split(separator: " ")
            guard let chunk = parts[0].split(separator: " ").first, let declared = words.first, let last = words.last
            else { continue }
            found.append((String(chunk), String(declared), String(last.filter { $0 != ")" })))
        }
        guard let pick = found.first(where: { ["data", "SSND"].contains($0.chunk) }) ?? found.first else { return nil }
        return "the \(pick.chunk) chunk declares \(pick.declared) bytes and the file holds \(pick.present) of them"
    }

    /// Reads up to `frames` frames into `buffer` (interleaved, `frames × channels` samples,
    /// resized when smaller) and returns how many frames were read; 0 at the end.
    package func read(into buffer: inout [Float], frames: Int) -> Int {
        let needed = frames * channels
        if buffer.count < needed { buffer = [Float](repeating: 0, count: needed) }
        let read = buffer.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, sf_count_t(frames)) }
        return Int(max(0, read))
    }
}
