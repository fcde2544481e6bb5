import NearbyInterop
import NearbyJSON
import NearbyRunner
import NearbySystem
import NearbyTestSupport
import Testing

/// docs/conformance-matrix.md is what the implementations answer now: the reference adapter
/// passes every vector through the protocol, each third-party adapter runs to the end, and the
/// page in the repository is the page they produce. CI installs the libraries (Scripts/bootstrap
/// runs Interop/install), so there a missing library is a failure, not a skip.
@Suite(.serialized)
struct ConformanceMatrixTests {
    static let libraries = [
        "beacontools", "scapy", "ibeacon_ble", "bluetooth_data_tools", "bleparser", "aioblescan", "beacondecoder",
        "TheengsDecoder", "btsnoop",
    ]

    /// Holds INTEROP-19, INTEROP-20, INTEROP-22, INTEROP-23, INTEROP-24, INTEROP-26, INTEROP-28, INTEROP-29, INTEROP-30
    /// and INTEROP-31.
    @Test func theMatrixInTheRepositoryIsUpToDate() throws {
        guard Python.has(Self.libraries), TShark.path != nil else {
            if Environment.value("CI") != nil {
                Issue.record("CI must install \(Self.libraries) and tshark (Interop/install)")
            }
            return
        }
        guard let tool = CommandLineTool.executable else {
            Issue.record("the tool is not built")
            return
        }
        let root = RepositoryPaths.root
        let list = try ConformanceMatrix.list(file: root + "/Interop/implementations.json")
        let entries = list.entries
        let matrix = ConformanceMatrix.run(
            list, root: root, tool: tool, vectorPaths: [root + "/Vectors"], timeoutSeconds: 120)
        #expect(matrix.rows.count == entries.count && entries.count >= 10)

        let reference = try #require(matrix.rows.first)
        #expect(reference.outcome.implementation?.name == ReferenceAdapter.name)
        #expect(reference.outcome.results.count == matrix.vectors.count)
        // The reference's known failures (Vectors/known-failures.json) fail through the protocol too.
        let known = try KnownFailures.load(root + "/Vectors/" + KnownFailures.fileName)
        let notPassing = reference.outcome.results.filter { $0.status != .pass && known.reasons[$0.id] == nil }
        #expect(
            notPassing.isEmpty,
            "the reference adapter passes every vector: \(notPassing.map { "\($0.id): \($0.message)" })")

        #expect(reference.generated.results.count == ConformanceMatrix.generation.count)
        #expect(
            reference.generated.results.allSatisfy { $0.status == .pass },
            "the reference adapter passes every generated vector")
        // Vectors nobody has seen find what the repository's do not hide: at least two
        // libraries fail some, on a value the specification decides (a FAIL, not an error).
        let failingGenerated = matrix.rows.dropFirst().filter { row in
            row.generated.results.contains { $0.status == .fail }
        }
        #expect(
            failingGenerated.count >= 2, "libraries failing generated vectors: \(failingGenerated.map(\.entry.command))"
        )

        for row in matrix.rows.dropFirst() {
            let name = row.outcome.implementation?.name
            #expect(name != nil, "\(row.entry.command) completes its handshake")
            #expect(row.outcome.results.count == matrix.vectors.count, "\(row.entry.command) runs to the end")
            #expect(
                !row.outcome.results.contains { $0.message.hasPrefix("not run") },
                "\(row.entry.command) runs to the end")
            #expect(row.outcome.results.contains { $0.status == .pass }, "\(row.entry.command) passes something")
        }

        let page = matrix.markdown()
        let committed = String(decoding: try JSONFile.read(root + "/docs/conformance-matrix.md"), as: UTF8.self)
        if committed != page {
            let a = committed.split(separator: "\n", omittingEmptySubsequences: false),
                b = page.split(separator: "\n", omittingEmptySubsequences: false)
            let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            Issue.record(
                """
                docs/conformance-matrix.md is out of date (run `swift run nearby-conformance matrix` and commit it); \
                first difference at line \(i + 1):
                  committed: \(i < a.count ? String(a[i]) : "(end)")
                  now:       \(i < b.count ? String(b[i]) : "(end)")
                """)
        }
    }
}
