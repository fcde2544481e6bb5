import Foundation
import NearbyCapture

/// A fresh directory under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init() {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nearby-conformance-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func write(_ bytes: [UInt8], to name: String) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Locations in the repository and beside it.
public enum RepositoryPaths {
    /// The package root (the folder of Package.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The capture files under `Captures/` ending in one of `suffixes`, relative to it and
    /// sorted, but those made to hold faults for their vectors (`damaged/`, `gaps/`, and the
    /// systematic captures, which include damaged files and forms the reader refuses): the
    /// files the tests that need whole captures use.
    public static func wholeCaptures(suffixes: [String]) -> [String] {
        let all = FileManager.default.enumerator(atPath: root + "/Captures")?.compactMap { $0 as? String } ?? []
        let faulty = ["damaged/", "gaps/", "systematic/"]
        return all.filter { p in !faulty.contains { p.hasPrefix($0) } && suffixes.contains { p.hasSuffix($0) } }
            .sorted()
    }

    /// The field captures' folder, kept outside the repository in a sibling folder, when it
    /// is there.
    public static var sharedCaptures: String? {
        let p = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared/captures").path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }
}

extension TemporaryDirectory {
    /// Writes `records` as a classic pcap of `linkType` through libpcap (timestamps 1, 2, …
    /// µs) and returns the file's path and bytes.
    public func writePcap(
        _ records: [[UInt8]], linkType: NearbyCapture.LinkType, to name: String
    ) throws -> (path: String, bytes: [UInt8]) {
        let p = file(name)
        let w = try PcapWriter(path: p, linkType: linkType)
        for (i, r) in records.enumerated() { w.write(r, timestampMicros: Int64(i + 1)) }
        w.close()
        return (p, [UInt8](try Data(contentsOf: URL(fileURLWithPath: p))))
    }

    /// Writes a btsnoop (datalink 1002) of H4 events received by the host, 1 µs apart.
    public func writeReceivedEvents(_ events: [[UInt8]], to name: String) -> String {
        var w = BtsnoopWriter(datalink: .hciUART)
        for (i, e) in events.enumerated() {
            w.append(e, flags: BtsnoopWriter.Flags.receivedEvent, timestampMicros: Int64(i + 1))
        }
        return write(w.bytes, to: name)
    }
}
