import NearbyAudio
import NearbyBytes
import NearbyDecode
import NearbyJSON
import NearbyText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `decode` prints what it finds in sound files (docs/decode-output.md, "Audio files").
public enum AudioDecodeOutput {
    /// Extensions taken for sound files (lower case); other files are read as captures.
    public static let extensions: Set<String> = [
        "wav", "wave", "flac", "ogg", "oga", "opus", "aif", "aiff", "aifc", "au", "snd", "caf", "w64", "rf64", "mp3",
    ]

    public static func isAudioFile(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// One frame: token (hex), mode, length, start and end (s, 6 decimals), clockOffsetPpm
    /// and snrDb (1 decimal), detection (1 decimal), correctedBytes, channel, file.
    public static func json(_ f: AudioTokenFrame, file: String) -> JSONValue {
        .object([
            "token": .string(Hex.encode(f.token)), "mode": .string(f.mode.rawValue), "length": .int(f.token.count),
            "start": fixed(f.start, 6), "end": fixed(f.end, 6), "clockOffsetPpm": fixed(f.clockOffsetPpm, 1),
            "snrDb": fixed(f.snrDb, 1), "detection": fixed(f.detection, 1), "correctedBytes": .int(f.correctedBytes),
            "channel": .int(f.channel), "file": .string(file),
        ])
    }

    /// One sighting interval, wrapped as {"interval": {…}}.
    public static func json(_ i: AudioSightingIntervals.Interval, file: String) -> JSONValue {
        .object([
            "interval": .object([
                "token": .string(Hex.encode(i.token)), "mode": .string(i.mode.rawValue),
                "firstSeen": fixed(i.firstSeen, 6),
                "lastSeen": fixed(i.lastSeen, 6), "frames": .int(i.frames), "maxSnrDb": fixed(i.maxSnrDb, 1),
                "file": .string(file),
            ])
        ])
    }

    /// A file's accounting for `--summary`.
    public static func json(_ s: AudioFileDecoder.Summary, file: String) -> JSONValue {
        .object([
            "file": .string(file), "sampleRate": .int(s.sampleRate), "channels": .int(s.channels),
            "seconds": fixed(s.seconds, 6), "tokenFrames": .int(s.tokenFrames),
            "nonFiniteSamples": .int(s.nonFiniteSamples), "clippedSamples": .int(s.clippedSamples),
            "samplesMissing": s.samplesMissing.map { .string($0) } ?? .null,
        ])
    }

    /// A number with `decimals` decimals, written verbatim (−0 as 0).
    static func fixed(_ value: Double, _ decimals: Int) -> JSONValue {
        guard value.isFinite else { return .null }
        let text = PrintfText.format("%.\(decimals)f", value)
        return .number(text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text)
    }
}
