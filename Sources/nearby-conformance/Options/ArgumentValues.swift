import ArgumentParser
import NearbyAudio
import NearbyDecode
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
