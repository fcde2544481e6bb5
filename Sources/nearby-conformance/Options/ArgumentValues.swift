import ArgumentParser
import NearbyAudio
import NearbyDecode
import NearbyDecodeSession
import NearbyInterop
import NearbyRunner

extension DecodeSession.OutputFormat: ExpressibleByArgument {}

extension InteropLevel: ExpressibleByArgument {
    public init?(argument: String) {
        let l = InteropLevel(rawValue: argument)
        guard InteropLevel.all.contains(l) else { return nil }
        self = l
    }
}

extension AudioMode: ExpressibleByArgument {
    public init?(argument: String) {
        guard ["inaudible", "audible"].contains(argument) else { return nil }
        self.init(rawValue: argument)
    }
}

extension SoundFileWriter.Encoding: ExpressibleByArgument {}

/// A time in seconds given on the command line, read exactly to the microsecond
/// (`-`, digits, and up to six decimals): `--time-origin 1795647020.934172`.
struct ExactSeconds: ExpressibleByArgument, Sendable {
    var micros: Int64

    init?(argument: String) {
        var text = Substring(argument)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCII),
            let seconds = Int64(whole)
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let f = Int64(digits)
            else { return nil }
            fraction = f * Int64([1, 100_000, 10_000, 1000, 100, 10, 1][digits.count])
        }
        micros = (seconds * 1_000_000 + fraction) * (negative ? -1 : 1)
    }

    var defaultValueDescription: String { String(micros) }
}
