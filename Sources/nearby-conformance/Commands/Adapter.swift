import ArgumentParser
import NearbyInterop
import NearbyRunner

struct Adapter: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the reference decoder and engine over the interop protocol on standard input and output.",
        discussion: "For `validate --implementation 'nearby-conformance adapter'`: docs/spec/interop.md, INTEROP-30.")

    func run() throws {
        // Written straight to the file descriptor: each reply must leave at once, not sit in a buffer.
        ReferenceAdapter.serve(
            readLine: { Swift.readLine(strippingNewline: true) },
            write: { FileDescriptorOutput.write($0 + "\n", fd: 1) })
    }
}
