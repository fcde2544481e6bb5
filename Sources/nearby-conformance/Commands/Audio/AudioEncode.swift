import ArgumentParser
import NearbyAudio
import NearbyBytes
import NearbyJSON
import RealModule
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct AudioEncode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a token as NUT v1 frames into a WAV or FLAC file.",
        discussion: """
            The file holds --lead seconds of silence, then --repeat frames separated by gaps drawn \
            uniformly from 50–150 ms (seeded by --seed), then 0.5 s of silence. A WAV file holds at most \
            4 GiB of samples (its sizes are 32-bit): more is refused before anything is written; FLAC \
            has no such limit. Exit status 1 on a bad token, a WAV too large or an unwritable file.
            """)

    @Option(help: "The token, hex (6, 8, 12 or 16 bytes).")
    var token: String

    @Option(help: "inaudible (18.5–20 kHz DSSS) or audible (1.2–4.2 kHz tones).")
    var mode: AudioMode = .inaudible

    @Option(help: "Sample rate, Hz (44100 or more).")
    var rate: Int = 48_000

    @Option(name: .shortAndLong, help: "Output file: .wav or .flac.")
    var output: String

    @Option(help: "Frames to write.")
    var `repeat`: Int = 1

    @Option(help: "Silence before the first frame, seconds.")
    var lead: Double = 0.5

    @Option(help: "Frame peak level, dBFS (at most 0).")
    var level: Double = -1

    @Option(help: "Sample encoding: pcm16 or float (WAV only).")
    var encoding: SoundFileWriter.Encoding = .pcm16

    @Option(help: "Seed of the gaps between frames.")
    var seed: UInt64 = 1

    /// The most sample bytes `encode` writes into a WAV file: the RIFF chunk's 32-bit size less
    /// 4 KiB for the header chunks libsndfile writes before the data (fmt, fact, PEAK).
    static let maximumWAVDataBytes = Int(UInt32.max) - 4096

    func validate() throws {
        if rate < AudioFileDecoder.minimumSampleRate {
            throw ValidationError("--rate must be at least 44100 Hz (NUT v1 reaches 20 kHz).")
        }
        if `repeat` < 1 { throw ValidationError("--repeat must be at least 1.") }
        if lead < 0 || lead > 3600 { throw ValidationError("--lead must be between 0 and 3600 seconds.") }
        if level > 0 { throw ValidationError("--level must be at most 0 dBFS.") }
    }

    func run() throws {
        var stderr = StandardError()
        guard let bytes = Hex.decode(token) else {
            print("error: --token: not hex: \(token)", to: &stderr)
            throw ExitCode(1)
        }
        let peak = Double.pow(10, level / 20)
        let frame: [Float]
        do {
            frame =
                mode == .audible
                ? try AudibleEncoder(sampleRate: Double(rate), peak: peak).samples(token: bytes)
                : try InaudibleEncoder(sampleRate: Double(rate), peak: peak).samples(token: bytes)
        } catch {
            print("error: --token: \(error)", to: &stderr)
            throw ExitCode(1)
        }
        // A WAV file's RIFF sizes are 32-bit: refuse what they cannot hold rather than write a
        // file whose sizes wrap. The bound takes every gap at its longest (150 ms).
        if output.lowercased().hasSuffix(".wav") {
            let samples =
                Int(lead * Double(rate)) + `repeat` * frame.count + (`repeat` - 1) * Int(0.15 * Double(rate)) + rate / 2
            let (bytes, overflow) = samples.multipliedReportingOverflow(by: encoding == .pcm16 ? 2 : 4)
            if overflow || bytes > AudioEncode.maximumWAVDataBytes {
                print(
                    "error: -o \(output): up to \(overflow ? "more than \(Int.max)" : "\(bytes)") bytes of samples; "
                        + "a WAV file holds at most \(AudioEncode.maximumWAVDataBytes) (4 GiB less room for its "
                        + "header): write .flac, or fewer frames",
                    to: &stderr)
                throw ExitCode(1)
            }
        }
        do {
            let writer = try SoundFileWriter(path: output, sampleRate: rate, encoding: encoding)
            var gaps = GaussianNoise(seed: seed)
            try writer.write([Float](repeating: 0, count: Int(lead * Double(rate))))
            for i in 0..<`repeat` {
                if i > 0 {
                    try writer.write([Float](repeating: 0, count: Int((0.05 + 0.1 * gaps.uniform()) * Double(rate))))
                }
                try writer.write(frame)
            }
            try writer.write([Float](repeating: 0, count: rate / 2))
            try writer.close()
        } catch {
            print("error: \(error)", to: &stderr)
            throw ExitCode(1)
        }
    }
}
