import Foundation
import NearbyAudio

/// The token frames of each sound file, decoded once for every session that shares the cache
/// (several vectors replay the same recording). Keyed by path, size and modification time, so
/// a file rewritten in place is decoded again. Safe to share between threads.
public final class AudioFrameCache: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private var entries: [String: [AudioTokenFrame]] = [:]

    /// The CRC-valid NUT frames of the sound file at `path`, in file order.
    public func frames(_ path: String) throws(AudioFileError) -> [AudioTokenFrame] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let key = "\(path)|\(size)|\(modified)"
        lock.lock()
        let cached = entries[key]
        lock.unlock()
        if let cached { return cached }
        var frames: [AudioTokenFrame] = []
        _ = try AudioFileDecoder().decode(path: path) { frames.append($0) }
        lock.lock()
        entries[key] = frames
        lock.unlock()
        return frames
    }
}
