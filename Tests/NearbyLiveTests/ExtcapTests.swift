import Foundation
import NearbyTestSupport
import Testing

/// `extcap` called as Wireshark calls it (Wireshark's doc/extcap.adoc): the listing
/// arguments, then `--capture --fifo` read by `tshark -r FIFO`, stopped with SIGTERM as
/// Wireshark stops a capture.
@Suite(.serialized, .enabled(if: CommandLineTool.executable != nil, "needs the executable"))
struct ExtcapTests {
    @Test func theInterfacesTheirLinkTypesAndSettingsAreListed() throws {
        let list = try CommandLineTool.run(["extcap", "--extcap-interfaces", "--extcap-version=4.0"])
        #expect(list.status == 0)
        #expect(list.stdoutLines.first?.hasPrefix("extcap {version=") == true)
        #expect(
            list.stdoutLines.dropFirst().map { $0.components(separatedBy: "}{")[0] } == [
                "interface {value=nearby-tcp", "interface {value=nearby-hci-user",
                "interface {value=nearby-hci-monitor",
            ])
        let dlts = try CommandLineTool.run(["extcap", "--extcap-dlts", "--extcap-interface", "nearby-tcp"])
        #expect(dlts.stdoutLines.first?.hasPrefix("dlt {number=201}{name=BLUETOOTH_HCI_H4_WITH_PHDR}") == true)
        let monitor = try CommandLineTool.run(["extcap", "--extcap-dlts", "--extcap-interface", "nearby-hci-monitor"])
        #expect(monitor.stdoutLines.first?.hasPrefix("dlt {number=254}{name=BLUETOOTH_LINUX_MONITOR}") == true)
        let config = try CommandLineTool.run(["extcap", "--extcap-config", "--extcap-interface", "nearby-tcp"])
        #expect(config.stdoutLines.first?.hasPrefix("arg {number=0}{call=--remote}") == true)
        let unknown = try CommandLineTool.run(["extcap", "--extcap-dlts", "--extcap-interface", "eth0"])
        #expect(unknown.status == 64)
    }

    /// A fifo in `dir`, as Wireshark makes one for each capture.
    func makeFifo(in dir: TemporaryDirectory) throws -> String {
        let fifo = dir.file("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        return fifo
    }

    /// `extcap --capture` from the scanning controller into `fifo`, called as Wireshark calls it.
    func startCapture(into fifo: String, from controllers: Bumble.Controllers) throws -> CommandLineTool.Running {
        try CommandLineTool.start([
            "extcap", "--capture", "--extcap-interface", "nearby-tcp", "--fifo", fifo, "--remote",
            "127.0.0.1:\(controllers.scannerPort)",
        ])
    }

    @Test(.enabled(if: Bumble.available && TShark.path != nil, "needs bumble and tshark"))
    func aCaptureWrittenToTheFifoIsReadByTShark() throws {
        let controllers = try Bumble.Controllers()
        defer { controllers.stop() }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = try makeFifo(in: dir)
        let tsharkOut = dir.file("tshark.txt")
        _ = FileManager.default.createFile(atPath: tsharkOut, contents: nil)
        let tshark = Process()
        tshark.executableURL = URL(fileURLWithPath: TShark.path!)
        tshark.arguments = ["-r", fifo, "-T", "fields", "-e", "frame.number", "-e", "bthci_evt.bd_addr"]
        tshark.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: tsharkOut))
        tshark.standardError = FileHandle.nullDevice
        try tshark.run()
        defer { if tshark.isRunning { kill(tshark.processIdentifier, SIGKILL) } }
        let capture = try startCapture(into: fifo, from: controllers)
        Thread.sleep(forTimeInterval: 1)
        let truth = try Bumble.advertise(port: controllers.advertiserPort, frames: ["ibeacon"], seconds: 1.2)
        capture.send(SIGTERM)
        let result = try capture.finish(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let deadline = Date().addingTimeInterval(20)
        while tshark.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let rows = try String(contentsOfFile: tsharkOut, encoding: .utf8).split(separator: "\n")
        // Frames numbered from 1 without gaps; the iBeacon's address among them (reported by
        // the scanner while it was advertised).
        #expect(
            rows.map { Int($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }
                == (1...rows.count).map { $0 })
        #expect(rows.contains { $0.hasSuffix("\t" + truth[0].address) })
    }

    @Test(.enabled(if: Bumble.available, "needs bumble"))
    func aCaptureEndsQuietlyWhenWiresharkClosesTheFifo() throws {
        let controllers = try Bumble.Controllers()
        defer { controllers.stop() }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = try makeFifo(in: dir)
        // A reader that takes the pcap file header (24 bytes) and goes, as Wireshark does
        // when its capture is stopped from the toolbar.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        reader.arguments = ["python3", "-c", "import sys; f = open(sys.argv[1], 'rb'); f.read(24); f.close()", fifo]
        try reader.run()
        let capture = try startCapture(into: fifo, from: controllers)
        reader.waitUntilExit()
        _ = try Bumble.advertise(port: controllers.advertiserPort, frames: ["ibeacon"], seconds: 1.5)
        // The next record cannot be written: the capture stops (scanning disabled) by itself.
        let result = try capture.finish(timeout: 15)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }
}
