/// A streaming demodulator for one channel of one NUT v1 mode. Samples go in as they are
/// read; frames come out once decided. Memory does not grow with the stream's length.
public protocol AudioDemodulator: AnyObject {
    var mode: AudioMode { get }
    /// Feeds `samples`, the next of the channel, in order. Samples must be finite.
    func process(_ samples: [Float])
    /// Ends the stream and decides what is still pending.
    func finish()
    /// Returns and forgets the frames decoded so far (channel 0; the caller sets it).
    func takeFrames() -> [AudioTokenFrame]
}

/// The fast form the decoders use: samples read where they lie, in an interleaved block.
package protocol StridedAudioDemodulator: AudioDemodulator {
    /// Feeds `count` samples taken from `samples` every `stride` elements (a channel of an
    /// interleaved block). Samples must be finite.
    func process(_ samples: UnsafePointer<Float>, count: Int, stride: Int)
}
