import Foundation
import NearbyAudio
import NearbyBytes
import NearbyTestSupport
import Testing

/// Sound files the field produces besides speech and music: cut off mid-frame, silence, DC,
/// full-scale square waves, NaN samples. Each decodes to the end without a crash, reports no
/// token that is not there, and accounts for what it read.
@Suite struct MalformedAudioBatteryTests {
    typealias Helpers = AudioFileDecoderTests

    static func decodeAll(_ path: String) throws -> ([AudioTokenFrame], AudioFileDecoder.Summary) {
        try Helpers.decode(path)
    }

    @Test(arguments: [0.25, 0.5, 0.75])
    func aFileCutMidFrameDecodesWhatIsComplete(_ fraction: Double) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let frame = try Helpers.frame()
        // One whole frame, then a second cut at `fraction` of its length; the WAV header is
        // then cut too: the file says it is longer than it is.
        let samples = [Float](repeating: 0, count: 12_000) + frame + [Float](repeating: 0, count: 12_000) + frame
        let path = dir.file("cut.wav")
        try Helpers.write(samples, to: path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let keep = bytes.count - Int(Double(frame.count) * (1 - fraction)) * 2
        bytes.removeSubrange(keep...)
        let cut = dir.write(bytes, to: "cut-short.wav")
        let (frames, summary) = try Self.decodeAll(cut)
        // The complete frame decodes; the cut one may too when enough of it is left for the
        // Reed–Solomon code to fill in the rest (it does at 75 %), but never as another token.
        #expect(frames.first?.token == Helpers.token, "the complete frame decodes")
        #expect(frames.count <= 2 && frames.allSatisfy { $0.token == Helpers.token }, "no token that is not there")
        if fraction <= 0.5 { #expect(frames.count == 1, "half a frame or less is not a frame") }
        #expect(summary.sampleFrames == Int64((keep - 44) / 2), "every sample present is read")
    }

    @Test func silenceHasNoTokens() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("silence.wav")
        try Helpers.write([Float](repeating: 0, count: 48_000 * 5), to: path)
        let (frames, summary) = try Self.decodeAll(path)
        #expect(frames.isEmpty)
        #expect(summary.sampleFrames == 240_000 && summary.clippedSamples == 0 && summary.nonFiniteSamples == 0)
    }

    @Test(arguments: [-0.9, 0.5, 0.999])
    func aDCOffsetHasNoTokens(_ level: Double) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("dc.wav")
        try Helpers.write([Float](repeating: Float(level), count: 48_000 * 5), to: path)
        let (frames, summary) = try Self.decodeAll(path)
        #expect(frames.isEmpty)
        #expect(summary.sampleFrames == 240_000)
    }

    /// Full-scale square waves at 1 kHz (audible band's neighbourhood), 4 kHz and 19 kHz
    /// (inside the inaudible band): energy everywhere, no token.
    @Test(arguments: [1_000.0, 4_000.0, 19_000.0])
    func aFullScaleSquareWaveHasNoTokens(_ frequency: Double) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("square.wav")
        let samples = (0..<(48_000 * 5)).map { i -> Float in
            (Double(i) * frequency / 48_000).truncatingRemainder(dividingBy: 1) < 0.5 ? 1 : -1
        }
        try Helpers.write(samples, to: path, encoding: .float32)
        let (frames, summary) = try Self.decodeAll(path)
        #expect(frames.isEmpty)
        #expect(summary.clippedSamples == samples.count, "every sample is at full scale")
    }

    /// Holds NUT-35.
    @Test func aFileOfNaNHasNoTokensAndCountsThem() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("nan.wav")
        try Helpers.write([Float](repeating: .nan, count: 48_000 * 2), to: path, encoding: .float32)
        let (frames, summary) = try Self.decodeAll(path)
        #expect(frames.isEmpty)
        #expect(summary.nonFiniteSamples == 96_000)
    }
}
