import NearbyLive
import Testing

@Suite struct LiveSourceNameTests {
    @Test func bumbleTransportNamesAreRead() throws {
        #expect(try LiveSourceName("tcp-client:127.0.0.1:9101") == .tcpClient(host: "127.0.0.1", port: 9101))
        #expect(try LiveSourceName("tcp-client:[::1]:9101") == .tcpClient(host: "::1", port: 9101))
        #expect(try LiveSourceName("tcp-client:localhost:1") == .tcpClient(host: "localhost", port: 1))
        #expect(try LiveSourceName("hci-monitor") == .hciMonitor)
        #expect(try LiveSourceName("hci-user:0") == .hciUser(index: 0))
        #expect(try LiveSourceName("tcp-client:[::1]:9101").description == "tcp-client:[::1]:9101")
    }

    @Test(arguments: [
        "", "tcp-client:", "tcp-client:127.0.0.1", "tcp-client:127.0.0.1:0", "tcp-client:127.0.0.1:65536",
        "tcp-client::9101", "hci-user:", "hci-user:x", "hci-user:65535", "tcp-server:127.0.0.1:9101",
        "serial:/dev/ttyACM0",
    ])
    func otherNamesAreRefusedWithTheFormsAccepted(_ text: String) {
        #expect {
            try LiveSourceName(text)
        } throws: { error in
            guard let e = error as? LiveError else { return false }
            return e.code == .badName && e.source == text && e.reason.contains("tcp-client:HOST:PORT")
        }
    }

    @Test func onlyTheMonitorWatchesWithoutDriving() throws {
        #expect(try !LiveSourceName("hci-monitor").drivesController)
        #expect(try LiveSourceName("hci-user:1").drivesController)
        #expect(try LiveSourceName("tcp-client:127.0.0.1:9101").drivesController)
    }
}
