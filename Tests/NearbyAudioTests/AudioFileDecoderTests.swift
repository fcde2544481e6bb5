import Foundation
import NearbyAudio
import NearbyBytes
import NearbyTestSupport
import Testing

/// Files in, frames or a clear error out: bad input never crashes (issue 5's list).
@Suite struct AudioFileDecoderTests {
    static let token: [UInt8] = Hex.decode("0a0b0c0d0e0f")!

    static func frame(rate: Int = 48_000) throws -> [Float] {
        try InaudibleEncoder(sampleRate: Double(rate)).samples(token: token)
    }

    static func write(
        _ samples: [Float], to path: String, rate: Int = 48_000, channels: Int = 1,
        encoding: SoundFileWriter.Encoding = .pcm16
    ) throws {
        let w = try SoundFileWriter(path: path, sampleRate: rate, channels: channels, encoding: encoding)
        try w.write(samples)
        try w.close()
    }

    static func decode(_ path: String) throws(AudioFileError) -> ([AudioTokenFrame], AudioFileDecoder.Summary) {
        var frames: [AudioTokenFrame] = []
        let summary = try AudioFileDecoder().decode(path: path) { frames.append($0) }
        return (frames, summary)
    }

    @Test func anEmptyFileIsAnErrorNamingTheFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write([], to: "empty.wav")
        let error = #expect(throws: AudioFileError.self) { try Self.decode(path) }
        #expect(error?.path == path)
        #expect(error?.reason.contains("not a sound file") == true)
    }

    @Test func aFileThatIsNotAudioIsAnError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(Array("this is not a WAV file, just text\n".utf8), to: "notes.wav")
        let error = #expect(throws: AudioFileError.self) { try Self.decode(path) }
        #expect(error?.description.hasPrefix(path) == true)
    }

    /// Holds NUT-33.
    @Test func aSampleRateBelow44100IsRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("phone.wav")
        try Self.write([Float](repeating: 0, count: 8_000), to: path, rate: 8_000)
        let error = #expect(throws: AudioFileError.self) { try Self.decode(path) }
        #expect(error?.reason.contains("8000 Hz is below 44 100 Hz") == true)
    }

    @Test func aFileWithNoSamplesHasNoTokens() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("nothing.wav")
        try Self.write([], to: path)
        let (frames, summary) = try Self.decode(path)
        #expect(frames.isEmpty)
        #expect(summary.sampleFrames == 0 && summary.tokenFrames == 0)
    }

    /// Holds NUT-35.
    @Test func nonFiniteSamplesAreCountedAndDecodedAsSilence() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("nan.wav")
        var samples = [Float](repeating: 0, count: 24_000) + (try Self.frame()) + [Float](repeating: 0, count: 24_000)
        for i in stride(from: 0, to: 20_000, by: 1_000) { samples[i] = .nan }
        samples[20_500] = .infinity
        samples[20_600] = -.infinity
        try Self.write(samples, to: path, encoding: .float32)
        let (frames, summary) = try Self.decode(path)
        #expect(summary.nonFiniteSamples == 22)
        #expect(frames.map(\.token) == [Self.token])
    }

    /// Holds NUT-36.
    @Test func clippedAudioIsCountedAndStillDecodes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("loud.wav")
        let loud = try Self.frame().map { max(-1, min(1, $0 * 4)) }
        try Self.write([Float](repeating: 0, count: 24_000) + loud + [Float](repeating: 0, count: 24_000), to: path)
        let (frames, summary) = try Self.decode(path)
        #expect(summary.clippedSamples > 1_000)
        #expect(frames.map(\.token) == [Self.token])
    }

    /// Holds NUT-34 and NUT-55.
    @Test func eachChannelIsDecodedAndDuplicatesMerge() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let frame = try Self.frame()
        let silence = [Float](repeating: 0, count: 24_000)
        let other: [UInt8] = Hex.decode("ffeeddccbbaa")!
        let frame2 = try InaudibleEncoder(sampleRate: 48_000).samples(token: other)
        // channel 0: token A then silence; channel 1: token A (same time, quieter) then token B
        let left = silence + frame + silence + [Float](repeating: 0, count: frame2.count) + silence
        let right = silence + frame.map { $0 * 0.5 } + silence + frame2 + silence
        var interleaved: [Float] = []
        for i in 0..<left.count { interleaved += [left[i], right[i]] }
        let path = dir.file("stereo.wav")
        try Self.write(interleaved, to: path, channels: 2)
        let (frames, summary) = try Self.decode(path)
        #expect(summary.channels == 2)
        #expect(frames.map(\.token) == [Self.token, other])
        #expect(frames.map(\.channel) == [0, 1])
    }

    @Test func writerRefusesUnknownExtensionsAndFloatFLAC() {
        #expect(throws: AudioFileError.self) { try SoundFileWriter(path: "/tmp/x.mp4", sampleRate: 48_000) }
        #expect(throws: AudioFileError.self) {
            try SoundFileWriter(path: "/tmp/x.flac", sampleRate: 48_000, encoding: .float32)
        }
    }

    /// Holds NUT-54.
    @Test func intervalsCloseAfterTheLostTimeout() {
        func f(_ start: Double, _ token: [UInt8] = [1, 2, 3, 4, 5, 6]) -> AudioTokenFrame {
            AudioTokenFrame(
                token: token, mode: .inaudible, start: start, end: start + 1.5, clockOffsetPpm: 0,
                snrDb: start, detection: 30, correctedBytes: 0, channel: 0)
        }
        var merged = AudioSightingIntervals(lostTimeout: 10)
        for start in [0.0, 2.0, 11.5, 30.0] { merged.add(f(start)) }
        merged.add(f(1.0, [9, 9, 9, 9, 9, 9]))
        let intervals = merged.intervals()
        #expect(intervals.map(\.firstSeen) == [0, 1, 30])
        #expect(intervals.map(\.lastSeen) == [13, 2.5, 31.5])
        #expect(intervals.map(\.frames) == [3, 1, 1])
        #expect(intervals[0].maxSnrDb == 11.5)
    }
}
