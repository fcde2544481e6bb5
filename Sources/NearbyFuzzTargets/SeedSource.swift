import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON

/// Where the seeds come from: the repository's own captures and vectors, read with the
/// decoder's lower layers (containers and AD structures), which the unit tests cover.
enum SeedSource {
    /// The files below `root/folder` whose names end in one of `suffixes`, sorted.
    static func files(_ root: String, _ folder: String, suffixes: [String]) -> [String] {
        FileTree.files(below: root + "/" + folder).filter { p in suffixes.contains { p.hasSuffix($0) } }
    }

    /// The bytes of each file (an unreadable one is left out).
    static func contents(_ paths: [String]) -> [[UInt8]] {
        paths.compactMap { try? JSONFile.read($0) }
    }

    /// The capture files under `Captures/`.
    static func captures(_ root: String) -> [String] {
        files(root, "Captures", suffixes: [".pcap", ".pcapng", ".btsnoop", ".txt", ".log"])
    }

    /// Every record of every capture, with its encapsulation, in file order.
    static func records(_ root: String) -> [(encapsulation: Encapsulation, bytes: [UInt8])] {
        var out: [(Encapsulation, [UInt8])] = []
        for path in captures(root) {
            guard let reader = try? CaptureFile.open(path) else { continue }
            while let result = reader.next() {
                if case .record(let r) = result { out.append((r.metadata.encapsulation, Array(r.bytes))) }
            }
        }
        return out
    }

    /// The AD data of every advertisement in the captures, and of every frame vector
    /// (`input.adData` in `Vectors/frames/`).
    static func advertisingData(_ root: String) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for path in captures(root) {
            guard let reader = try? CaptureFile.open(path) else { continue }
            var decoder = RecordDecoder()
            while let result = reader.next() {
                guard case .record(let r) = result else { continue }
                for a in decoder.decode(r).advertisements { if let d = a.data, !d.isEmpty { out.append(Array(d)) } }
            }
        }
        for path in files(root, "Vectors/frames", suffixes: [".json"]) {
            guard let root = try? JSONFile.load(path), case .object(let file) = root.value,
                case .array(let vectors)? = file["vectors"]
            else { continue }
            for case .object(let v) in vectors {
                if case .object(let input)? = v["input"], case .string(let hex)? = input["adData"],
                    let bytes = Hex.decode(hex)
                {
                    out.append(bytes)
                }
            }
        }
        return out
    }

    /// The payloads of the AD structures of type `type` in `advertisingData`, with their
    /// first `dropping` bytes removed (a service UUID, say) when they start with `prefix`.
    static func payloads(_ advertisingData: [[UInt8]], type: ADType, prefix: [UInt8], dropping: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for data in advertisingData {
            try? ADStructure.forEach(in: data[...]) { (ad: ADStructure) throws(DecodeError) in
                if ad.type == type && ad.payload.starts(with: prefix) {
                    out.append(Array(ad.payload.dropFirst(dropping)))
                }
            }
        }
        return out
    }
}
