import Foundation
import NearbyTestSupport
import Testing

/// How `decode` takes the paths it is given, through the built executable.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct InputPathCommandTests {
    /// A directory holding one capture, a `self -> .` link and a link to a sibling folder that
    /// links back: each directory is read once, so the capture is decoded once (the same
    /// lines as naming it alone), each repeat is said on standard error, and the run ends.
    @Test func symbolicLinkLoopsAreReadOnceAndReported() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fm = FileManager.default
        let a = dir.file("a"), b = dir.file("b")
        try fm.createDirectory(atPath: a, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: b, withIntermediateDirectories: true)
        let capture = a + "/crowded.btsnoop"
        try fm.copyItem(atPath: RepositoryPaths.root + "/Captures/synthetic/crowded/crowded.btsnoop", toPath: capture)
        try fm.createSymbolicLink(atPath: a + "/self", withDestinationPath: ".")
        try fm.createSymbolicLink(atPath: a + "/to-b", withDestinationPath: "../b")
        try fm.createSymbolicLink(atPath: b + "/to-a", withDestinationPath: "../a")
        let alone = try CommandLineTool.run(["decode", "--beacons-only", capture])
        let tree = try CommandLineTool.run(["decode", "--beacons-only", a])
        #expect(tree.status == 0, "\(tree.stderr)")
        #expect(tree.stdoutLines.count == alone.stdoutLines.count && !alone.stdoutLines.isEmpty)
        #expect(
            tree.stderr.contains("skipped: \(a)/self: the same directory as \(a), read once (a symbolic link loop)"),
            "\(tree.stderr)")
        #expect(
            tree.stderr.contains(
                "skipped: \(a)/to-b/to-a: the same directory as \(a), read once (a symbolic link loop)"),
            "\(tree.stderr)")
    }

    /// `decode -` and `decode /dev/stdin` read a capture from a pipe (each container,
    /// recognised from its first bytes): the same lines as the file itself gives; an empty
    /// pipe is an empty file (exit 1).
    @Test(arguments: [
        "Captures/synthetic/crowded/crowded.btsnoop", "Captures/synthetic/crowded/crowded-201.pcap",
        "Captures/fixtures/hci-h4-phdr-201.pcapng", "Captures/fixtures/hci-h4.txt",
    ])
    func aCaptureOnStandardInputDecodesAsTheFileDoes(_ capture: String) throws {
        let path = RepositoryPaths.root + "/" + capture
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let alone = try CommandLineTool.run(["decode", path])
        #expect(alone.status == 0 && !alone.stdoutLines.isEmpty)
        for name in ["-", "/dev/stdin"] {
            let piped = try CommandLineTool.run(["decode", name], input: bytes)
            #expect(piped.status == 0, "\(name): \(piped.stderr)")
            // The lines name the file as given: compare them without it.
            let strip = { (line: String) in
                line.replacingOccurrences(of: "\"file\":\"\(path)\"", with: "").replacingOccurrences(
                    of: "\"file\":\"\(name)\"", with: "")
            }
            #expect(piped.stdoutLines.map(strip) == alone.stdoutLines.map(strip), "\(name)")
        }
        let empty = try CommandLineTool.run(["decode", "-"], input: [])
        #expect(empty.status == 1 && empty.stderr.contains("error: -: empty file"), "\(empty.stderr)")
    }
}
