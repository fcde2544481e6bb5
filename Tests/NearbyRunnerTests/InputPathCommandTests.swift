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
        let dir = TemporaryDirectory(); defer { dir.remove() }
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
        #expect(tree.stderr.contains("skipped: \(a)/self: the same directory as \(a), read once (a symbolic link loop)"), "\(tree.stderr)")
        #expect(tree.stderr.contains("skipped: \(a)/to-b/to-a: the same directory as \(a), read once (a symbolic link loop)"), "\(tree.stderr)")
    }
}
