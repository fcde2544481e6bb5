/// What both NUT v1 receivers share (docs/spec/nut-audio.md): the front end that mixes one
/// channel down to baseband (`BasebandConverter`) into a history (`ComplexHistory`), the
/// drive that feeds it slice by slice and lets the receiver look at what arrived after each
/// (`advance(final:)`), and the frames decided so far. `AudibleDemodulator` and
/// `InaudibleDemodulator` are its two receivers.
public class BasebandReceiver {
    final var converter: BasebandConverter
    final var baseband = ComplexHistory(capacity: 1 << 15)
    /// Frames decided and not yet taken.
    final var frames: [AudioTokenFrame] = []
    private final var finished = false

    /// Input samples handled per step.
    static let slice = 16_384

    init(converter: BasebandConverter) {
        self.converter = converter
    }

    /// Feeds `samples`, the next of the channel, in order. Samples must be finite.
    public final func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { if let base = $0.baseAddress { process(base, count: $0.count, stride: 1) } }
    }

    /// Feeds `count` samples taken from `samples` every `stride` elements (a channel of an
    /// interleaved block).
    package final func process(_ samples: UnsafePointer<Float>, count: Int, stride: Int) {
        inSlices(count, of: Self.slice) { offset, n in
            converter.process(samples + offset * stride, count: n, stride: stride, into: &baseband)
            advance(final: false)
        }
    }

    /// Ends the stream and decides what is still pending.
    public final func finish() {
        guard !finished else { return }
        finished = true
        converter.finish(into: &baseband)
        advance(final: true)
    }

    /// Returns and forgets the frames decided so far.
    public final func takeFrames() -> [AudioTokenFrame] {
        defer { frames.removeAll() }
        return frames
    }

    /// Looks at the baseband that has arrived and decides what it can; `final` at the end of
    /// the stream. Each receiver overrides it.
    func advance(final: Bool) {
        preconditionFailure("a receiver overrides advance(final:)")
    }
}
