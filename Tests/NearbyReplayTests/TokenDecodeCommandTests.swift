import NearbyTestSupport
import Testing

/// `decode` shows BLE token v1 frames (docs/spec/ble-token.md) from the replay tests' capture.
@Suite struct TokenDecodeCommandTests {
    @Test func decodeShowsTokenFramesWithTheirFields() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = ReplayTests.writeCapture(dir)
        let r = try CommandLineTool.run(["decode", "--beacons-only", capture])
        #expect(r.status == 0)
        let tokenLines = r.stdoutLines.filter { $0.contains("token-v1") }
        #expect(tokenLines.count == 5)
        #expect(
            tokenLines.first?.contains(
                #""beacons":[{"flags":0,"token":"a1b2c3d4e5f6","txPower":-12,"type":"token-v1"}]"#) == true,
            "\(tokenLines.first ?? "")")
        #expect(
            tokenLines.last?.contains(#"{"flags":0,"token":"112233445566","txPower":-12,"type":"token-v1"}"#) == true)
    }
}
