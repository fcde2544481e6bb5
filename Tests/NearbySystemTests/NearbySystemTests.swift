import NearbySystem
import Testing

/// The platform module's contracts that the rest of the package leans on.
@Suite struct NearbySystemTests {
    @Test func aWriteToAPipeWithoutReaderFailsWithEPIPEAndLeavesNoSignalBehind() throws {
        let (read, write) = try FileDescriptor.pipe()
        try read.close()
        defer { try? write.close() }
        // The default action of SIGPIPE ends the process: the guard must keep it from firing.
        Signals.setDefault(Signals.brokenPipe)
        let outcome: Errno? = Signals.withoutBrokenPipeSignal {
            do {
                _ = try [UInt8](repeating: 0x41, count: 16).withUnsafeBytes { try write.write($0) }
                return nil
            } catch let e as Errno {
                return e
            } catch {
                return .ioError
            }
        }
        #expect(outcome == .brokenPipe)
    }

    @Test func aReopenableTemporaryFileOpensByItsPathAndIsGoneWithTheValue() throws {
        var path: String?
        do {
            let file = try TemporaryFile(prefix: "nearby-system-test", reopenable: true)
            _ = try ([1, 2, 3] as [UInt8]).withUnsafeBytes { try file.descriptor.writeAll($0) }
            path = file.path
            let again = try FileDescriptor.open(try #require(file.path), .readOnly)
            defer { try? again.close() }
            var bytes = [UInt8](repeating: 0, count: 8)
            let n = try bytes.withUnsafeMutableBytes { try again.read(into: $0) }
            #expect(Array(bytes[0..<n]) == [1, 2, 3])
        }
        // Nameless from the start on glibc (a /proc/self/fd path that no longer opens), named
        // and removed at release otherwise: either way nothing is left.
        let p = try #require(path)
        #expect(!p.hasPrefix("/proc/") ? FileInfo.of(p) == nil : true)
    }

    @Test func fileInfoTellsFilesFoldersAndOtherKindsApart() throws {
        let folder = try FileSystem.makeTemporaryDirectory(in: Environment.temporaryFolder, prefix: "nearby-system")
        defer { FileSystem.removeTree(folder) }
        let file = folder + "/a"
        let fd = try FileDescriptor.open(file, .writeOnly, options: [.create], permissions: .ownerReadWrite)
        _ = try ([9, 9] as [UInt8]).withUnsafeBytes { try fd.writeAll($0) }
        try fd.close()
        #expect(FileInfo.of(folder)?.kind == .directory)
        #expect(FileInfo.of(file)?.kind == .regular)
        #expect(FileInfo.of(file)?.size == 2)
        #expect(FileInfo.of("/dev/null")?.kind == .other)
        #expect(try FileSystem.entries(of: folder) == ["a"])
        FileSystem.removeTree(folder)
        #expect(FileInfo.of(folder) == nil)
    }
}
