import Foundation
import NearbyAudio
import NearbyBytes
import NearbyTestSupport
import Testing

/// The Swift modem against the independent numpy prototypes (Scripts/prototypes): files
/// written by one decode with the other, both modes, 48 and 44.1 kHz; and the encoders'
/// samples agree. Runs when python3 has numpy and reedsolo (Scripts/bootstrap installs them).
@Suite(.enabled(if: NumpyPrototype.available, "python3 with numpy and reedsolo is not installed"))
struct PrototypeCrossCheckTests {
    static let script = RepositoryPaths.root + "/Scripts/prototypes/crosscheck.py"

    static let cases: [(AudioMode, Int, String)] = [
        (.inaudible, 48_000, "0001020304050607"),
        (.inaudible, 44_100, "a1b2c3d4e5f6"),
        (.audible, 48_000, "101112131415161718191a1b1c1d1e1f"),
        (.audible, 44_100, "c0ffee000000beef"),
    ]

    @Test(arguments: 0..<4)
    func prototypeFilesDecodeWithTheSwiftDecoder(index: Int) throws {
        let (mode, rate, hex) = Self.cases[index]
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("prototype.wav")
        let result = try Python.run([Self.script, "encode", mode.rawValue, String(rate), hex, path])
        try #require(result.status == 0, "\(result.output)")
        var frames: [AudioTokenFrame] = []
        _ = try AudioFileDecoder(modes: [mode]).decode(path: path) { frames.append($0) }
        #expect(frames.map { Hex.encode($0.token) } == [hex])
        // The prototype's frame starts after 0.5 s of silence; NUT-I's chip 0 starts 3.5 chips in.
        let expected = 0.5 + (mode == .inaudible ? InaudibleEncoder.chipZeroOffset : 0)
        if let f = frames.first { #expect(abs(f.start - expected) < 100e-6, "start \(f.start), expected \(expected)") }
    }

    @Test(arguments: 0..<4)
    func swiftFilesDecodeWithThePrototype(index: Int) throws {
        let (mode, rate, hex) = Self.cases[index]
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("swift.wav")
        let token = Hex.decode(hex)!
        let frame =
            mode == .audible
            ? try AudibleEncoder(sampleRate: Double(rate)).samples(token: token)
            : try InaudibleEncoder(sampleRate: Double(rate)).samples(token: token)
        let writer = try SoundFileWriter(path: path, sampleRate: rate)
        let silence = [Float](repeating: 0, count: rate / 2)
        try writer.write(silence + frame + silence)
        try writer.close()
        let result = try Python.run([Self.script, "decode", mode.rawValue, path])
        try #require(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(result.output)")
        #expect(lines.first?.contains("\"token\": \"\(hex)\"") == true, "\(result.output)")
    }

    /// NUT-A is defined sample for sample as the prototype generates it; NUT-I with pulses
    /// truncated to ±4 chips (the prototype's encoder reaches to +5; crosscheck.py computes
    /// the symmetric form from the prototype's own pulse and chip functions).
    /// Holds NUT-3, NUT-4, NUT-5, NUT-6, NUT-7, NUT-8, NUT-9, NUT-15, NUT-20, NUT-21, NUT-22 and NUT-23.
    @Test(arguments: 0..<4)
    func encoderSamplesMatchThePrototype(index: Int) throws {
        let (mode, rate, hex) = Self.cases[index]
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("samples.f32")
        let result = try Python.run([Self.script, "samples", mode.rawValue, String(rate), hex, path])
        try #require(result.status == 0, "\(result.output)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let reference: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // The prototype normalises to a peak of 0.9.
        let token = Hex.decode(hex)!
        let ours =
            mode == .audible
            ? try AudibleEncoder(sampleRate: Double(rate), peak: 0.9).samples(token: token)
            : try InaudibleEncoder(sampleRate: Double(rate), peak: 0.9).samples(token: token)
        #expect(ours.count == reference.count)
        let worst = zip(ours, reference).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
        #expect(worst < 1e-6, "largest difference \(worst)")
    }
}

enum NumpyPrototype {
    static let available = Python.has(["numpy", "reedsolo"])
}
