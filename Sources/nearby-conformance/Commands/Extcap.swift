import ArgumentParser
import NearbyCapture
import NearbyInterop
import NearbyLive
import NearbyRunner

/// Wireshark's extcap interface (doc/extcap.adoc in Wireshark's sources): Wireshark runs the
/// program in its extcap folder with `--extcap-interfaces`, `--extcap-dlts`,
/// `--extcap-config` and `--capture --fifo`; the capture is pcap written to the fifo until
/// Wireshark sends SIGTERM (or closes the fifo).
struct Extcap: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the live sources to Wireshark as capture interfaces (Wireshark's extcap interface).",
        discussion: """
            Wireshark calls this through a two-line script in its extcap folder (README, Live capture): \
            it lists the interfaces (nearby-tcp: a controller served over TCP, as by Bumble; nearby-hci-user: \
            Linux's user channel; nearby-hci-monitor: Linux's monitor channel), asks for their link type and \
            settings, then captures: pcap, LINKTYPE 201 (254 for the monitor), one record per HCI packet, \
            written to the fifo as it comes. A driven controller is reset and scans passively, as with \
            decode --live.
            """)

    /// The interfaces, with their source, link type and settings.
    enum Interface: String, CaseIterable {
        case tcp = "nearby-tcp"
        case hciUser = "nearby-hci-user"
        case hciMonitor = "nearby-hci-monitor"

        var display: String {
            switch self {
            case .tcp: "Nearby: HCI controller over TCP (Bumble, netsim)"
            case .hciUser: "Nearby: Linux HCI user channel (a controller released by the kernel)"
            case .hciMonitor: "Nearby: Linux HCI monitor (every controller, read only)"
            }
        }

        var linkType: LinkType { self == .hciMonitor ? .bluetoothLinuxMonitor : .bluetoothHCIH4WithPHDR }
    }

    @Flag(name: .customLong("extcap-interfaces"), help: "List the interfaces.")
    var listInterfaces = false
    @Option(name: .customLong("extcap-version"), help: "Wireshark's version (passed by Wireshark).")
    var wiresharkVersion: String?
    @Option(name: .customLong("extcap-interface"), help: "The interface to describe or capture from.")
    var interface: String?
    @Flag(name: .customLong("extcap-dlts"), help: "List the interface's link types.")
    var listDLTs = false
    @Flag(name: .customLong("extcap-config"), help: "List the interface's settings.")
    var listConfig = false
    @Flag(help: "Capture from the interface into --fifo.")
    var capture = false
    @Option(help: "Where to write the capture (pcap).")
    var fifo: String?
    @Option(name: .customLong("extcap-capture-filter"), help: "Ignored: the capture keeps every record.")
    var captureFilter: String?
    @Option(name: .customLong("extcap-control-in"), help: "Ignored (no toolbar controls).")
    var controlIn: String?
    @Option(name: .customLong("extcap-control-out"), help: "Ignored (no toolbar controls).")
    var controlOut: String?
    @Flag(name: .customLong("debug"), help: "Ignored.")
    var debug = false
    @Option(name: .customLong("debug-file"), help: "Ignored.")
    var debugFile: String?
    @Option(help: "nearby-tcp: the controller's HOST:PORT.")
    var remote = "127.0.0.1:9101"
    @Option(help: "nearby-hci-user: the controller number N of hciN.")
    var controller = 0

    func validate() throws {
        if let interface, Interface(rawValue: interface) == nil {
            throw ValidationError(
                "--extcap-interface: no interface \(interface) ("
                    + Interface.allCases.map(\.rawValue).joined(separator: ", ") + ")"
            )
        }
        if (listDLTs || listConfig || capture) && interface == nil {
            throw ValidationError("--extcap-dlts, --extcap-config and --capture need --extcap-interface.")
        }
        if capture && fifo == nil { throw ValidationError("--capture needs --fifo.") }
        if !(listInterfaces || listDLTs || listConfig || capture) {
            throw ValidationError(
                "Wireshark calls this with --extcap-interfaces, --extcap-dlts, --extcap-config or --capture.")
        }
    }

    func run() throws {
        if listInterfaces {
            print("extcap {version=\(ReferenceAdapter.version)}")
            for i in Interface.allCases { print("interface {value=\(i.rawValue)}{display=\(i.display)}") }
            return
        }
        guard let interface = interface.flatMap(Interface.init(rawValue:)) else { return }
        if listDLTs {
            let name =
                interface.linkType == .bluetoothLinuxMonitor ? "BLUETOOTH_LINUX_MONITOR" : "BLUETOOTH_HCI_H4_WITH_PHDR"
            print("dlt {number=\(interface.linkType.rawValue)}{name=\(name)}{display=\(interface.display)}")
            return
        }
        if listConfig {
            switch interface {
            case .tcp:
                print(
                    "arg {number=0}{call=--remote}{display=Controller (HOST:PORT)}{type=string}{default=127.0.0.1:9101}"
                        + "{tooltip=Where the controller is served, as by python3 -m bumble.apps.controllers "
                        + "tcp-server:HOST:PORT}")
            case .hciUser:
                print(
                    "arg {number=0}{call=--controller}{display=Controller number (hciN)}{type=integer}{range=0,255}"
                        + "{default=0}{tooltip=Release it first: sudo hciconfig hciN down}")
            case .hciMonitor: break
            }
            return
        }
        try captureToFifo(interface)
    }

    private func captureToFifo(_ interface: Interface) throws {
        ProcessSettings.ignoreBrokenPipes()
        StopRequest.install()
        let text: String =
            switch interface {
            case .tcp: "tcp-client:" + remote
            case .hciUser: "hci-user:\(controller)"
            case .hciMonitor: "hci-monitor"
            }
        let capture: LiveCapture
        do {
            let source = try LiveSourceName(text)
            let writer = try LiveCaptureWriter(
                path: fifo ?? "", format: .pcap, linkType: interface.linkType, source: text)
            capture = try LiveCapture(source: source, writer: writer)
        } catch {
            // Wireshark shows standard error to the user when the capture fails.
            printError("error: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
        reading: while true {
            switch capture.read({ _ in true }) {
            case .end: break reading
            case .record, .malformed: continue
            }
        }
        // Wireshark closing the fifo ends the capture as its SIGTERM does.
        if let failure = capture.failure, failure.code != .writeFailed {
            printError("error: \(failure)")
            throw ExitCode(ExitStatus.failure)
        }
    }
}
