import NearbyAudio
import NearbySystem
import Synchronization

/// The token frames of each sound file, decoded once for every session that shares the cache
/// (several vectors replay the same recording). Keyed by path, size and modification time, so
/// a file rewritten in place is decoded again. Safe to share between threads.
public final class AudioFrameCache: Sendable {
    public init() {}

    private let entries = Mutex<[String: [AudioTokenFrame]]>([:])

    /// The CRC-valid NUT frames of the sound file at `path`, in file order.
    public func frames(_ path: String) throws(AudioFileError) -> [AudioTokenFrame] {
        let key = Self.key(path)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        var frames: [AudioTokenFrame] = []
        _ = try AudioFileDecoder().decode(path: path) { frames.append($0) }
        entries.withLock { $0[key] = frames }
        return frames
    }

    /// The path with the file's size and modification time (`stat`; -1 and 0 when it
    /// cannot be read, so that the decoder reports why).
    private static func key(_ path: String) -> String {
        guard let info = FileInfo.of(path) else { return "\(path)|-1|0" }
        return "\(path)|\(info.size)|\(info.modifiedSeconds).\(info.modifiedNanoseconds)"
    }
}
