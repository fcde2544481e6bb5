import Foundation

/// Google's Bumble (PyPI `bumble`, installed by Scripts/bootstrap) for the tests of the live
/// sources: its virtual controllers served over TCP on 127.0.0.1, and
/// Scripts/bumble-advertise.py advertising from one of them. Never used by the product.
public enum Bumble {
    /// python3 can import bumble.
    public static let available = Python.has(["bumble"])

    /// Two virtual controllers on one link (`python3 -m bumble.apps.controllers`), each
    /// served on its own port of 127.0.0.1: one to scan with, one to advertise from. The
    /// process is ended by `stop()` (or when this is released).
    public final class Controllers {
        public let scannerPort: Int
        public let advertiserPort: Int
        private let process: Process

        public init() throws {
            let (status, output) = try Python.run([
                "-c",
                "import socket\nsockets = [socket.socket() for _ in range(2)]\n"
                    + "for s in sockets: s.bind(('127.0.0.1', 0))\n"
                    + "print(' '.join(str(s.getsockname()[1]) for s in sockets))",
            ])
            let ports = output.split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard status == 0, ports.count == 2 else { throw CocoaError(.fileReadUnknown) }
            (scannerPort, advertiserPort) = (ports[0], ports[1])
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", "-m", "bumble.apps.controllers", "tcp-server:127.0.0.1:\(scannerPort)",
                "tcp-server:127.0.0.1:\(advertiserPort)",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Serving once both ports accept a connection (a connection that closes at once
            // leaves the controller as it was).
            let deadline = Date().addingTimeInterval(15)
            for port in ports {
                while !Self.accepts(port) {
                    guard Date() < deadline, process.isRunning else {
                        stop()
                        throw CocoaError(.executableLoad)
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
        }

        static func accepts(_ port: Int) -> Bool {
            (try? Python.run([
                "-c", "import socket; socket.create_connection(('127.0.0.1', \(port)), timeout=1).close()",
            ]).status) == 0
        }

        /// `tcp-client:127.0.0.1:PORT` of the scanning controller.
        public var scanner: String { "tcp-client:127.0.0.1:\(scannerPort)" }

        public func stop() {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    /// One advertising interval of Scripts/bumble-advertise.py: the frame kind, its address
    /// and when it was on the air (Unix seconds, the host's clock).
    public struct Interval: Sendable, Decodable {
        public var kind: String
        public var address: String
        public var start: Double
        public var stop: Double
    }

    /// Advertises `frames` (kinds of Scripts/bumble_frames.py) in turn from the controller at
    /// `port`, each for `seconds`; returns the intervals once done. Bounded: killed after
    /// `frames.count * seconds + 20` s.
    public static func advertise(port: Int, frames: [String], seconds: Double) throws -> [Interval] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", RepositoryPaths.root + "/Scripts/bumble-advertise.py", "tcp-client:127.0.0.1:\(port)",
            "--frames", frames.joined(separator: ","), "--seconds-per-frame", String(seconds),
        ]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let limit = DispatchTime.now() + Double(frames.count) * seconds + 20
        let killer = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: limit, execute: killer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        return try data.split(separator: UInt8(ascii: "\n")).map {
            try JSONDecoder().decode(Interval.self, from: Data($0))
        }
    }
}
