import Foundation

/// Debian's `tshark` with the project's Wireshark plugin (Interop/wireshark/nearby_beacons.lua),
/// for the tests that check the plugin against the reference decoder. Never used by the
/// product.
public enum TShark {
    /// The plugin, as a user installs it.
    public static let plugin = RepositoryPaths.root + "/Interop/wireshark/nearby_beacons.lua"

    /// `tshark` on PATH, or nil.
    public static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return directories.map { $0 + "/tshark" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// One frame as TShark dissects it with the plugin loaded.
    public struct Frame: Sendable {
        /// The frame number (from 1), which is `decode`'s record number.
        public var number: Int
        /// An HCI command: the host's own advertising data, which `decode` never counts.
        public var isCommand: Bool
        /// Wireshark's own dissectors stopped at a malformed packet (outside the plugin).
        public var wiresharkMalformed: Bool
        /// The plugin's items (`nearby` trees) in order: field name → value as TShark prints it.
        public var items: [[String: String]]
    }

    /// Dissects `capture` (any file TShark reads) with the plugin.
    public static func dissect(_ capture: String) throws -> [Frame] {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.file("out.json")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["-X", "lua_script:" + plugin, "-r", capture, "-T", "json", "--no-duplicate-keys"]
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        guard let packets = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return packets.map { packet in
            let source = packet["_source"] as? [String: Any]
            let layers = source?["layers"] as? [String: Any] ?? [:]
            let frame = layers["frame"] as? [String: Any]
            let trees: [Any] =
                if let list = layers["nearby"] as? [Any] { list } else { layers["nearby"].map { [$0] } ?? [] }
            return Frame(
                number: Int(frame?["frame.number"] as? String ?? "") ?? 0,
                isCommand: layers["bthci_cmd"] != nil,
                wiresharkMalformed: layers["_ws.malformed"] != nil,
                items: trees.map { tree in
                    (tree as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
                })
        }
    }
}
