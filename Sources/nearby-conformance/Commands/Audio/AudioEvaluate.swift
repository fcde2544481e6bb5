import ArgumentParser
import NearbyAudio
import NearbyBytes
import NearbyJSON
import NearbySystem
import NearbyText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct AudioEvaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure the decoder: decode rate of random tokens per channel condition, as a table.",
        discussion: """
            Each trial encodes a random token at 48 kHz (−1 dBFS), puts it through a seeded channel \
            (white noise at an in-band SNR, resampling to 44.1 kHz, clock error, Freeverb reverberation, \
            low level, 16-bit quantisation) and decodes it. Columns: decoded/trials per token length, \
            wrong tokens, median timing error, median measured clock offset, median SNR estimate. Then \
            the in-band SNR where 95 % still decode, and the tokens found in --noise-seconds of white \
            noise (there must be none). Same seed, same table, whatever --jobs. Conditions: \
            docs/spec/nut-audio.md, "Evaluation".
            """)

    @Option(help: "inaudible, audible, or both.")
    var mode: String = "both"

    @Option(help: "Trials per condition and token length.")
    var trials: Int = 40

    @Option(help: "Token lengths, comma-separated.")
    var lengths: String = "6,16"

    @Option(help: "Seed of tokens, timing and noise.")
    var seed: UInt64 = 1

    // A negative value is read as the value (then refused with the allowed range), not as an option.
    @Option(parsing: .unconditional, help: "Worker threads, at least 1.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Seconds of white noise to decode for false tokens (0: skip).")
    var noiseSeconds: Double = 600

    @Option(help: "Only conditions whose name contains this text.")
    var filter: String?

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    @Option(help: "Write every trial that fails to decode into this directory as a WAV file.")
    var saveFailures: String?

    func validate() throws {
        if !["inaudible", "audible", "both"].contains(mode) {
            throw ValidationError("--mode must be inaudible, audible or both.")
        }
        if trials < 1 { throw ValidationError("--trials must be at least 1.") }
        if parsedLengths == nil { throw ValidationError("--lengths takes token lengths from 6, 8, 12, 16.") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    var parsedLengths: [Int]? {
        let list = lengths.split(separator: ",").compactMap { Int(Self.trimmed($0)) }
        return !list.isEmpty && list.allSatisfy(NUTFrameCoding.tokenLengths.contains) ? list : nil
    }

    /// `text` without the whitespace at either end.
    static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return "" }
        return text[first...text.lastIndex(where: { !$0.isWhitespace })!]
    }

    func run() throws {
        if let saveFailures {
            try FileManager.default.createDirectory(atPath: saveFailures, withIntermediateDirectories: true)
        }
        let modes: [AudioMode] = mode == "both" ? [.inaudible, .audible] : [AudioMode(rawValue: mode)]
        var report: [String: JSONValue] = ["seed": .int(Int64(seed)), "trials": .int(trials)]
        var modeReports: [JSONValue] = []
        for m in modes {
            var evaluation = AudioEvaluation(mode: m, tokenLengths: parsedLengths!, trials: trials, seed: seed)
            evaluation.failureDirectory = saveFailures
            if let filter { evaluation.conditions = evaluation.conditions.filter { $0.name.contains(filter) } }
            let rows = evaluation.run(jobs: jobs)
            print(Self.table(rows, mode: m, lengths: evaluation.tokenLengths, trials: trials))
            var crossings: [String: JSONValue] = [:]
            for length in evaluation.tokenLengths {
                let snr = AudioEvaluation.snrAt95(rows, length: length)
                crossings[String(length)] = snr.map { .number(PrintfText.format("%.1f", $0)) } ?? .null
                print(
                    "95 % decoded down to in-band SNR, \(length) B: "
                        + (snr.map { PrintfText.format("%.1f dB", $0) } ?? "not crossed in the sweep"))
            }
            print("")
            modeReports.append(
                .object([
                    "mode": .string(m.rawValue), "snrAt95": .object(crossings),
                    "rows": .array(rows.map(Self.json)),
                ]))
        }
        report["modes"] = .array(modeReports)
        if noiseSeconds > 0 {
            let frames = AudioEvaluation.noiseOnly(seconds: noiseSeconds, seed: seed)
            print("white noise, \(Int(noiseSeconds)) s at 48 kHz, both modes: \(frames.count) tokens")
            report["noiseOnly"] = .object([
                "seconds": .number(PrintfText.format("%.0f", noiseSeconds)), "tokens": .int(frames.count),
            ])
        }
        if let json {
            try (JSONValue.object(report).serialized + "\n").write(toFile: json, atomically: true, encoding: .utf8)
        }
    }

    static func json(_ r: AudioEvaluation.Row) -> JSONValue {
        func num(_ x: Double?, _ d: Int) -> JSONValue { x.map { .number(PrintfText.format("%.\(d)f", $0)) } ?? .null }
        return .object([
            "condition": .string(r.condition), "tokenLength": .int(r.tokenLength), "trials": .int(r.trials),
            "decoded": .int(r.decoded), "wrong": .int(r.wrong),
            "medianTimingErrorMicros": num(r.medianTimingErrorMicros, 0),
            "medianClockOffsetPpm": num(r.medianClockOffsetPpm, 0),
            "medianSnrEstimateDb": num(r.medianSnrEstimateDb, 1),
        ])
    }

    static func table(_ rows: [AudioEvaluation.Row], mode: AudioMode, lengths: [Int], trials: Int) -> String {
        let name = mode == .audible ? "NUT-A (audible)" : "NUT-I (inaudible)"
        var lines = ["\(name), \(trials) trials per point"]
        let header =
            [PrintfText.padded("condition", to: 24)]
            + lengths.map { PrintfText.padded("\($0) B ok", to: 8) }
            + ["wrong", "|Δt| µs", "ε ppm", "SNR est"]
        lines.append(header.joined(separator: " | "))
        var order: [String] = []
        for r in rows where !order.contains(r.condition) { order.append(r.condition) }
        for condition in order {
            let group = rows.filter { $0.condition == condition }
            var cells = [PrintfText.padded(condition, to: 24)]
            for length in lengths {
                let r = group.first { $0.tokenLength == length }
                cells.append(
                    PrintfText.padded(r.map { "\($0.decoded)/\($0.trials)" } ?? "-", to: 8))
            }
            let first = group.first
            cells.append(String(group.reduce(0) { $0 + $1.wrong }))
            cells.append(first?.medianTimingErrorMicros.map { String(Int($0.rounded())) } ?? "-")
            cells.append(first?.medianClockOffsetPpm.map { String(Int($0.rounded())) } ?? "-")
            cells.append(first?.medianSnrEstimateDb.map { PrintfText.format("%.1f", $0) } ?? "-")
            lines.append(cells.joined(separator: " | "))
        }
        return lines.joined(separator: "\n")
    }
}
