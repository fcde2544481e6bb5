import NearbyAudio

/// The NUT v1 targets (docs/spec/nut-audio.md): the demodulators on short blocks of samples,
/// and the byte layer (Reed–Solomon and CRC, NUT-27 to NUT-31) on arbitrary symbols.
extension FuzzTarget {
    /// Samples: byte 0 chooses the mode (bit 0: inaudible or audible) and the rate (bit 1:
    /// 44 100 or 48 000 Hz); byte 1 the block length (1…256 × 16 frames); the rest is
    /// 16-bit little-endian PCM, fed block by block, then the stream is finished. What must
    /// hold: a decided frame carries a 6, 8, 12 or 16-byte token (NUT-25), finite times in order and
    /// at most 4 corrected bytes.
    public static let nutSamples = FuzzTarget(
        name: "nut-samples", summary: "16-bit PCM through a NUT v1 demodulator in short blocks", dictionary: "nut",
        maximumLength: 1 << 15,
        check: { input in
            guard input.count >= 2 else { return [] }
            let rate = input[0] & 2 == 0 ? 44_100 : 48_000
            let demodulator: any StridedAudioDemodulator =
                input[0] & 1 == 0
                ? InaudibleDemodulator(sampleRate: rate) : AudibleDemodulator(sampleRate: rate)
            let block = (Int(input[1]) + 1) * 16
            var samples = [Float](repeating: 0, count: (input.count - 2) / 2)
            for i in samples.indices {
                samples[i] = Float(Int16(bitPattern: UInt16(input[2 + 2 * i]) | UInt16(input[3 + 2 * i]) << 8)) / 32_768
            }
            var frames: [AudioTokenFrame] = []
            samples.withUnsafeBufferPointer { p in
                var start = 0
                while start < p.count {
                    let n = min(block, p.count - start)
                    demodulator.process(p.baseAddress! + start, count: n, stride: 1)
                    frames += demodulator.takeFrames()
                    start += n
                }
            }
            demodulator.finish()
            frames += demodulator.takeFrames()
            return frames.flatMap { f -> [String] in
                var out: [String] = []
                if !NUTFrameCoding.tokenLengths.contains(f.token.count) {
                    out.append("a frame with a \(f.token.count)-byte token")
                }
                if !f.start.isFinite || !f.end.isFinite || f.end < f.start {
                    out.append("a frame from \(f.start) to \(f.end) s")
                }
                if f.correctedBytes > ReedSolomonCode.parityCount {
                    out.append("a frame with \(f.correctedBytes) corrected bytes")
                }
                return out
            }
        },
        seeds: { _ in nutSampleSeeds() })

    /// Symbols: each input byte is one symbol (low nibble) and its reliability (high
    /// nibble). A token decoded must re-encode to a codeword differing from the received one
    /// in exactly the bytes the decoder says it corrected, and in at most 4.
    public static let nutCodeword = FuzzTarget(
        name: "nut-codeword", summary: "NUT v1 symbols and reliabilities through Reed–Solomon and the CRC",
        dictionary: "nut",
        maximumLength: 256,
        check: { input in
            let symbols = input.map { Int($0 & 0x0F) }
            let reliability = input.map { Float($0 >> 4) }
            guard let decoded = NUTFrameCoding.decode(symbols: symbols, reliability: reliability) else { return [] }
            guard let encoded = try? NUTFrameCoding.symbols(token: decoded.token) else {
                return ["decoded a \(decoded.token.count)-byte token that cannot be encoded"]
            }
            guard encoded.count <= symbols.count else {
                return ["decoded from \(symbols.count) symbols a frame of \(encoded.count)"]
            }
            var differing = 0
            for j in 0..<(encoded.count - 1) / 2
            where encoded[1 + 2 * j] != symbols[1 + 2 * j] || encoded[2 + 2 * j] != symbols[2 + 2 * j] {
                differing += 1
            }
            if differing != decoded.correctedBytes || differing > ReedSolomonCode.parityCount {
                return ["the codeword differs in \(differing) bytes, the decoder corrected \(decoded.correctedBytes)"]
            }
            return []
        },
        seeds: { _ in
            NUTFrameCoding.tokenLengths.flatMap { length in
                (0..<3).compactMap { k in
                    try? NUTFrameCoding.symbols(
                        token: (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + k * 101) }
                    ).map { UInt8($0) | 0xF0 }
                }
            }
        })

    /// Short stretches of encoded frames of both modes at both rates: a frame's start, its
    /// middle and its end, as a demodulator meets them in a stream.
    static func nutSampleSeeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (selector, rate) in [(0, 44_100), (1, 44_100), (2, 48_000), (3, 48_000)] {
            let token: [UInt8] = [0x4E, 0x55, 0x54, 0x76, 0x31, UInt8(selector)]
            let samples =
                (selector & 1 == 0)
                ? (try? InaudibleEncoder(sampleRate: Double(rate)).samples(token: token)) ?? []
                : (try? AudibleEncoder(sampleRate: Double(rate)).samples(token: token)) ?? []
            let length = 8_000
            for start in [0, samples.count / 2, max(0, samples.count - length)] where start < samples.count {
                var seed: [UInt8] = [UInt8(selector), 63]
                for x in samples[start..<min(samples.count, start + length)] {
                    let v = UInt16(bitPattern: Int16(max(-32_768, min(32_767, (x * 32_768).rounded()))))
                    seed += [UInt8(v & 0xFF), UInt8(v >> 8)]
                }
                out.append(seed)
            }
        }
        return out
    }
}
