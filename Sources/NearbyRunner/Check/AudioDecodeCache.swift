import Foundation
import NearbyAudio

/// The token frames of each sound file, decoded once per process: several vectors replay the
/// same recording (a scenario over each capture container, and the audio vector), and decoding
/// costs far more than comparing. Keyed by path, size and modification time.
final class AudioDecodeCache: @unchecked Sendable {
    static let shared = AudioDecodeCache()

    private let lock = NSLock()
    private var entries: [String: [AudioTokenFrame]] = [:]

    func frames(_ path: String) throws(AudioFileError) -> [AudioTokenFrame] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let key = "\(path)|\((attributes?[.size] as? NSNumber)?.int64Value ?? -1)|\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
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
