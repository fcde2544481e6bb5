import Foundation
import NearbyAudio
import NearbyTestSupport
import Testing

/// `audio encode`, `decode` on sound files and `audio evaluate`, through the built tool.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct AudioCommandTests {
    /// A WAV file's RIFF and data sizes are 32-bit unsigned (the RIFF/WAVE format): 50 million
    /// frames of 16-bit samples need terabytes, so `encode` refuses before writing anything,
    /// exit status 1, naming the file and the way out (FLAC).
    @Test func aWAVTooLargeForItsSizesIsRefusedBeforeWriting() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wav = dir.file("big.wav")
        let r = try CommandLineTool.run([
            "audio", "encode", "--token", "001122334455", "--repeat", "50000000", "-o", wav,
        ])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("-o \(wav):") && r.stderr.contains("a WAV file holds at most")
                && r.stderr.contains(".flac"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: wav))
    }

    /// `encode --repeat` puts 50 to 150 ms of silence between frames, each gap drawn afresh:
    /// from one decoded start to the next (each within a millisecond: NUT-48) less the frame's
    /// samples as the encoder makes them, every gap falls in that range, and they are not all
    /// equal. Holds NUT-18.
    @Test func repeatedFramesAreFiftyToOneHundredFiftyMillisecondsApart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wav = dir.file("repeat.wav")
        let encode = try CommandLineTool.run([
            "audio", "encode", "--token", "a0a1a2a3a4a5", "--repeat", "12", "--seed", "5", "-o", wav,
        ])
        #expect(encode.status == 0, "\(encode.stderr)")
        let decode = try CommandLineTool.run(["decode", wav])
        let frames = try decode.stdoutLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(frames.count == 12)
        let starts = frames.compactMap { $0["start"] as? Double }
        let frameSeconds =
            Double(try InaudibleEncoder(sampleRate: 48_000).samples(token: [0xa0, 1, 2, 3, 4, 5]).count) / 48_000
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 - frameSeconds }
        #expect(gaps.count == 11)
        for gap in gaps { #expect(gap > 0.050 - 0.001 && gap < 0.150 + 0.001, "a gap of \(gap) s") }
        #expect(Set(gaps.map { ($0 * 1000).rounded() }).count > 3, "the gaps are drawn, not fixed: \(gaps)")
    }

    /// A sound file cut in half: what is there decodes, standard error says the file is cut
    /// short (for a WAV, from the data chunk's declared size, bytes 40–43 of the 44-byte
    /// header libsndfile writes, against the bytes left), and the exit status is 2.
    @Test func aSoundFileCutShortIsSaidAndExitsWithStatus2() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for name in ["cut.wav", "cut.flac"] {
            let whole = dir.file("whole-" + name)
            #expect(
                try CommandLineTool.run(["audio", "encode", "--token", "001122334455", "--repeat", "4", "-o", whole])
                    .status == 0)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
            let cut = dir.write(Array(bytes.prefix(bytes.count / 2)), to: name)
            let r = try CommandLineTool.run(["decode", cut])
            #expect(r.status == 2, "\(name): \(r.stderr)")
            #expect(r.stderr.contains("warning: \(cut): cut short: "), "\(r.stderr)")
            if name.hasSuffix(".wav") {
                let declared = bytes[40..<44].reversed().reduce(0) { $0 << 8 | Int($1) }
                #expect(
                    r.stderr.contains(
                        "the data chunk declares \(declared) bytes and the file holds \(bytes.count / 2 - 44) of them"),
                    "\(r.stderr)")
            }
            #expect(try CommandLineTool.run(["decode", whole]).status == 0, "the whole file decodes cleanly")
        }
    }

    /// Holds NUT-46, NUT-47, NUT-52 and NUT-54.
    @Test func encodedFilesDecodeToOneJSONLinePerFrameWithIntervals() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wav = dir.file("i.wav"), flac = dir.file("a.flac")
        #expect(
            try CommandLineTool.run([
                "audio", "encode", "--token", "00112233445566778899aabb", "--repeat", "2",
                "-o", wav,
            ]).status == 0)
        #expect(
            try CommandLineTool.run([
                "audio", "encode", "--token", "0102030405060708", "--mode", "audible",
                "--rate", "44100", "-o", flac,
            ]).status == 0)
        let result = try CommandLineTool.run(["decode", "--intervals", wav, flac])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.count == 5)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        let frames = objects.filter { $0["token"] != nil }
        #expect(
            frames.map { $0["token"] as? String } == [
                "00112233445566778899aabb", "00112233445566778899aabb", "0102030405060708",
            ])
        #expect(frames.map { $0["mode"] as? String } == ["inaudible", "inaudible", "audible"])
        #expect(
            Set(frames.flatMap { $0.keys }) == [
                "token", "mode", "length", "start", "end", "clockOffsetPpm", "snrDb",
                "detection", "correctedBytes", "channel", "file",
            ])
        let intervals = objects.compactMap { $0["interval"] as? [String: Any] }
        #expect(intervals.map { $0["frames"] as? Int } == [2, 1])
        // the first frame starts after the 0.5 s lead, 3.5 chips into the frame
        #expect(abs((frames[0]["start"] as? Double ?? 0) - (0.5 + 3.5 / 1200)) < 1e-4)
    }

    /// Holds NUT-26.
    @Test(arguments: ["", "0001", "00010203040506", "0001020304050607080910111213141516"])
    func encodingABadTokenFailsWithTheReason(hex: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = try CommandLineTool.run(["audio", "encode", "--token", hex, "-o", dir.file("x.wav")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("6, 8, 12 or 16 bytes"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.wav")))
    }

    @Test func aSoundFileThatCannotBeReadIsReportedAndExitsOne() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(Array("RIFF....".utf8), to: "broken.wav")
        let result = try CommandLineTool.run(["decode", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path) && result.stderr.contains("not a sound file"))
    }

    @Test func evaluateReportsTheDecodeRatePerCondition() throws {
        let result = try CommandLineTool.run([
            "audio", "evaluate", "--mode", "inaudible", "--trials", "3", "--lengths", "6",
            "--filter", "awgn -2", "--noise-seconds", "0", "--jobs", "2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("awgn -2"))
        #expect(result.stdout.contains("3/3"))
    }

    /// Each trial that does not decode is saved, named after its condition, length, index and
    /// token, as a 48 kHz WAV that `decode` reads; trials that decode are not.
    @Test func evaluateSavesTheTrialsThatFailed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let failures = dir.file("failures"), json = dir.file("r.json")
        let result = try CommandLineTool.run([
            "audio", "evaluate", "--mode", "audible", "--trials", "6", "--lengths", "16",
            "--filter", "awgn -10", "--noise-seconds", "0", "--json", json,
            "--save-failures", failures,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let modes = report?["modes"] as? [[String: Any]]
        let row = (modes?.first?["rows"] as? [[String: Any]])?.first
        let decoded = try #require(row?["decoded"] as? Int)
        let files = try FileManager.default.contentsOfDirectory(atPath: failures).sorted()
        #expect(files.count == 6 - decoded, "\(files)")
        for name in files {
            #expect(
                name.range(of: #"^awgn_-10-16B-[0-5]-[0-9a-f]{32}\.wav$"#, options: .regularExpression) != nil,
                "\(name)")
            let summary = try CommandLineTool.run(["decode", "--summary", failures + "/" + name])
            #expect(summary.status == 0)
            #expect(summary.stdout.contains("\"sampleRate\":48000"))
        }
    }
}
