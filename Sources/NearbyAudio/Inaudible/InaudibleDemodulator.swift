#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The streaming NUT-I receiver for one channel (docs/spec/nut-audio.md, "NUT-I" reception): front end,
/// resampling to 4 samples per chip, matched filter, acquisition over 11 time-scale
/// hypotheses, and frame-by-frame decisions.
///
/// Decisions follow the reference decoder's rule — take the strongest detection, decode
/// it, suppress detections from 0.1 s before it to 90 % of its frame after it, repeat —
/// applied locally: the strongest detection within 1.35 s (less than the shortest frame
/// plus its gap) of the earliest pending one, followed forward while a stronger one lies
/// within 1.35 s of it, is decided once the data to decode it has arrived.
public final class InaudibleDemodulator: BasebandReceiver, StridedAudioDemodulator {
    public let mode = AudioMode.inaudible
    public let sampleRate: Int
    /// Detection threshold on S (noise: Exp(1)); 20 by default (13 dB).
    public let threshold: Float

    private var acquisition: PreambleAcquisition
    private let receiver: InaudibleFrameReceiver
    private let matchedFilter = RootRaisedCosine.matchedFilter(samplesPerChip: 4, halfSpan: 4)
    /// Grid samples (before the matched filter) not yet filtered, from absolute index gridStart.
    private var gridRe: [Float] = []
    private var gridIm: [Float] = []
    private var gridStart = -16
    private var nextGrid = 0
    private var filteredRe: [Float] = []
    private var filteredIm: [Float] = []
    private var detections = DetectionQueue<PreambleAcquisition.Candidate>(window: InaudibleDemodulator.window)

    static let window = Int(1.35 * PreambleAcquisition.gridRate)
    /// Longest frame on the slowest time scale plus margins, seconds.
    static let decodeSpan = InaudibleEncoder.frameDuration(tokenLength: 16) * 1.006 + 0.05

    public init(sampleRate: Int, threshold: Float = 20) {
        self.sampleRate = sampleRate
        self.threshold = threshold
        let converter = BasebandConverter(
            sampleRate: sampleRate, carrierHz: Int(InaudibleEncoder.carrierHz), cutoffHz: 900)
        acquisition = PreambleAcquisition(threshold: threshold)
        receiver = InaudibleFrameReceiver(basebandRate: converter.outputRate)
        gridRe = [Float](repeating: 0, count: 16)
        gridIm = [Float](repeating: 0, count: 16)
        super.init(converter: converter)
    }

    override func advance(final: Bool) {
        // Grid samples at m / 4800 s, interpolated from the decimated baseband.
        let ratio = converter.outputRate / PreambleAcquisition.gridRate
        while true {
            let position = Double(nextGrid) * ratio
            let needed = Int(position.rounded(.down)) + 2
            if needed >= baseband.end && !(final && Int(position) < baseband.end) { break }
            let v = baseband.interpolate(at: position)
            gridRe.append(v.re)
            gridIm.append(v.im)
            nextGrid += 1
        }
        if final {
            gridRe += [Float](repeating: 0, count: 16)
            gridIm += [Float](repeating: 0, count: 16)
        }
        // Matched filter (33 taps, centred): output m needs grid m − 16 … m + 16.
        let taps = matchedFilter.count
        filteredRe.removeAll(keepingCapacity: true)
        filteredIm.removeAll(keepingCapacity: true)
        var m = 0
        while m + taps <= gridRe.count {
            var sr: Float = 0, si: Float = 0
            for k in 0..<taps {
                sr += matchedFilter[k] * gridRe[m + k]
                si += matchedFilter[k] * gridIm[m + k]
            }
            filteredRe.append(sr)
            filteredIm.append(si)
            m += 1
        }
        if m > 0 {
            gridRe.removeFirst(m)
            gridIm.removeFirst(m)
            gridStart += m
        }
        filteredRe.withUnsafeBufferPointer { re in
            filteredIm.withUnsafeBufferPointer { im in
                acquisition.process(re: re, im: im, candidates: &detections.pending)
            }
        }
        if final { acquisition.finish(candidates: &detections.pending) }
        decide(final: final)
    }

    private func decide(final: Bool) {
        let grid = PreambleAcquisition.gridRate
        while let chosen = detections.next(ready: { chosen, limit in
            final
                || (acquisition.evaluatedEnd > limit + 1
                    && Double(baseband.end) / converter.outputRate > Double(chosen.index) / grid + Self.decodeSpan)
        }) {
            let reception = receiver.receive(chosen, acquisition: acquisition, baseband: baseband)
            let length = reception.decoded?.token.count ?? 6
            let duration = InaudibleEncoder.frameDuration(tokenLength: length)
            if let decoded = reception.decoded {
                let chip = 1 / (InaudibleEncoder.chipRate * (1 + reception.epsilon))
                let start = reception.chipZeroCentre - 0.5 * chip
                frames.append(
                    AudioTokenFrame(
                        token: decoded.token, mode: .inaudible, start: start,
                        end: start + duration / (1 + reception.epsilon),
                        clockOffsetPpm: reception.epsilon * 1e6, snrDb: reception.snrDb,
                        detection: Double(chosen.statistic), correctedBytes: decoded.correctedBytes, channel: 0))
            }
            let from = chosen.index - Int(0.1 * grid)
            let to = chosen.index + Int(0.9 * duration * grid)
            detections.suppress(from: from, to: to)
        }
    }
}
