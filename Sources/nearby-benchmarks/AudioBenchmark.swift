import NearbyAudio
import NearbySystem

/// NUT decode speed: seconds of audio per second of CPU (this thread only), one core,
/// for a recording with a frame every ~2 s in white noise at −4 dB in-band SNR. The
/// baseline, measured in the same run over the same samples, is the cheapest useful pass:
/// summing the squares of the samples (what reading and touching the audio costs).
struct AudioBenchmark {
    var seconds = 60.0
    var sampleRate = 48_000
    var mode = AudioMode.inaudible

    struct Figures {
        var realTimeFactor: Double
        var baselineRealTimeFactor: Double
        var frames: Int
    }

    func recording() -> [Float] {
        var noise = GaussianNoise(seed: 42)
        var out: [Float] = []
        out.reserveCapacity(Int(seconds * Double(sampleRate)) + sampleRate * 4)
        let rate = Double(sampleRate)
        var index = 0
        while Double(out.count) < seconds * rate {
            let token = (0..<6).map { UInt8(truncatingIfNeeded: $0 * 31 + index) }
            let frame =
                mode == .audible
                ? try! AudibleEncoder(sampleRate: rate).samples(token: token)
                : try! InaudibleEncoder(sampleRate: rate).samples(token: token)
            let condition = ChannelCondition(name: "bench", snrDb: -4, recordingRate: rate)
            out += condition.apply(frame: frame, encodedRate: rate, lead: 0.1, mode: mode, noise: &noise)
            index += 1
        }
        return Array(out.prefix(Int(seconds * rate)))
    }

    func run(_ samples: [Float]) -> Figures {
        let audioSeconds = Double(samples.count) / Double(sampleRate)
        var start = Self.cpuNow()
        var sink: Float = 0
        for _ in 0..<10 { for x in samples { sink += x * x } }
        let baseline = (Self.cpuNow() - start) / 10
        start = Self.cpuNow()
        let demodulator: any StridedAudioDemodulator =
            mode == .audible
            ? AudibleDemodulator(sampleRate: sampleRate) : InaudibleDemodulator(sampleRate: sampleRate)
        var frames = 0
        samples.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let n = min(8192, p.count - i)
                demodulator.process(p.baseAddress! + i, count: n, stride: 1)
                frames += demodulator.takeFrames().count
                i += n
            }
        }
        demodulator.finish()
        frames += demodulator.takeFrames().count
        let elapsed = Self.cpuNow() - start
        if sink.isNaN { print("") }
        return Figures(
            realTimeFactor: audioSeconds / elapsed, baselineRealTimeFactor: audioSeconds / baseline, frames: frames)
    }

    /// CPU time of the calling thread, seconds.
    static func cpuNow() -> Double {
        SystemClock.threadCPUSeconds()
    }
}
