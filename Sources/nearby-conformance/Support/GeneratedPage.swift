import NearbyJSON

/// A page a command generates and the repository commits (docs/conformance-matrix.md,
/// docs/coverage.md): written to `output` (`-`: standard output), or, with `check`, compared
/// with the file there.
enum GeneratedPage {
    /// Writes `page`, or compares it; false when `check` finds the file out of date (said on
    /// standard error, with the `command` that rewrites it).
    static func writeOrCheck(_ page: String, to output: String, check: Bool, command: String) throws -> Bool {
        if check {
            let current = (try? JSONFile.read(output)).map { String(decoding: $0, as: UTF8.self) }
            if current != page {
                FileDescriptorOutput.write(
                    "\(output) is out of date: run `swift run nearby-conformance \(command)` and commit it\n", fd: 2)
                return false
            }
        } else if output == "-" {
            FileDescriptorOutput.write(page, fd: 1)
        } else {
            try ReportOptions.write(page, to: output)
            FileDescriptorOutput.write("wrote \(output)\n", fd: 1)
        }
        return true
    }
}
