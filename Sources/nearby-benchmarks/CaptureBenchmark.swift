import CPcap
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyMessages
import NearbyReplay
import NearbyRunner
import NearbySynthesis
import NearbySystem

/// Capture decode and end-to-end replay on the synthesizer's benchmark corpus
/// (`CaptureCorpus`: 1,000,000 advertisements by default, btsnoop and pcap LINKTYPE 201).
///
/// Per format, in one run: advertisements per second through `CaptureDecoder` (container,
/// HCI, reports, reassembly, AD structures, beacon frames, accounting) on this thread's CPU
/// time; two baselines over the same file — a C-style loop over libpcap (`pcap_next_ex`,
/// pcap only) and the container reader alone (records, no decoding); and the peak resident
/// memory of a child process that decodes the file. Then `ReplaySession` over the pcap with
/// 100 subscriptions and a registry of every corpus beacon, and the peak of a child that
/// replays it.
struct CaptureBenchmark {
    var advertisements = 1_000_000
    var directory = Environment.temporaryFolder + "/nearby-benchmarks"

    var btsnoop: String { "\(directory)/corpus-\(advertisements).btsnoop" }
    var pcap: String { "\(directory)/corpus-\(advertisements)-201.pcap" }

    /// Writes the corpus (always: the bytes are a function of the seed) and returns what it holds.
    func prepare() -> CaptureCorpus.Counts {
        try? FileSystem.makeDirectory(directory)
        do {
            return try CaptureCorpus(advertisements: advertisements).write(btsnoop: btsnoop, pcap201: pcap)
        } catch {
            fatalError("cannot write the corpus: \(error)")
        }
    }

    struct DecodeFigures {
        var advertisements = 0
        var beacons = 0
        var seconds = 0.0
    }

    /// The whole decode pipeline, counting advertisements and beacons.
    static func decode(_ path: String) -> DecodeFigures {
        var f = DecodeFigures()
        let t0 = cpuNow()
        do {
            _ = try CaptureDecoder.decode(
                path: path,
                onAdvertisement: { a in
                    f.advertisements += 1
                    f.beacons += a.beacons.count
                }, onIssue: { _ in })
        } catch {
            fatalError("\(error)")
        }
        f.seconds = cpuNow() - t0
        return f
    }

    /// Records per second through our container reader alone (records lent in runs, as
    /// `CaptureDecoder` reads them, and their last byte read).
    static func containerOnly(_ path: String) -> Double {
        let t0 = cpuNow()
        var n = 0, lastBytes = 0
        do {
            let reader = try CaptureFile.open(path)
            while case .record = reader.read({
                n += 1
                lastBytes &+= $0.bytes.isEmpty ? 0 : Int($0.bytes[$0.bytes.count - 1])
                return true
            }) {}
        } catch {
            fatalError("\(error)")
        }
        precondition(n == 0 || lastBytes != 0)
        return Double(n) / (cpuNow() - t0)
    }

    /// CPU seconds of the decode pipeline stopped after each stage: the container reader
    /// alone; with the link layer and reports (`RecordDecoder`, AD data untouched); with the
    /// AD data decoded (`AdvertisingDataDecoder`); and the whole of `CaptureDecoder`
    /// (`DecodedAdvertisement`, issues, accounting). Differences between them are what each
    /// stage costs; the figure to work on when decoding is too slow.
    static func stages(_ path: String) -> [Double] {
        var seconds: [Double] = []
        var check = 0
        do {
            var t0 = cpuNow()
            var reader = try CaptureFile.open(path)
            while case .record = reader.read({
                check &+= $0.bytes.count
                return true
            }) {}
            seconds.append(cpuNow() - t0)

            // Each advertisement built in one slot, as `CaptureDecoder` builds them.
            try RecordDecoder.withSlot { (slot) throws(CaptureFileError) in
                t0 = cpuNow()
                reader = try CaptureFile.open(path)
                var records = RecordDecoder()
                while case .record = reader.read({
                    _ = records.decode($0, building: slot) { check &+= slot.pointee.data?.count ?? 0 }
                    return true
                }) {}
                seconds.append(cpuNow() - t0)

                t0 = cpuNow()
                reader = try CaptureFile.open(path)
                records = RecordDecoder()
                // Into one reused `AdvertisingDataContents`, as `CaptureDecoder` decodes.
                var contents = AdvertisingDataContents()
                while case .record = reader.read({ record in
                    _ = records.decode(record, building: slot) {
                        guard let data = slot.pointee.data else { return }
                        AdvertisingDataDecoder.decode(data, into: &contents)
                        check &+= contents.beacons.count
                    }
                    return true
                }) {}
                seconds.append(cpuNow() - t0)
            }
        } catch {
            fatalError("\(error)")
        }
        seconds.append(decode(path).seconds)
        precondition(check != 0)
        return seconds
    }

    /// Records per second through libpcap alone: `pcap_next_ex` and a sum of the lengths.
    static func libpcapOnly(_ path: String) -> Double {
        var errors = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        guard let p = pcap_open_offline(path, &errors) else {
            fatalError(String(decoding: errors.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { pcap_close(p) }
        let t0 = cpuNow()
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        var n = 0, bytes = 0
        while pcap_next_ex(p, &header, &data) == 1 {
            n += 1
            bytes &+= Int(header!.pointee.caplen) &+ Int(data![0])
        }
        precondition(bytes != 0)
        return Double(n) / (cpuNow() - t0)
    }

    /// Peak resident memory (MiB) of `nearby-benchmarks MODE PATH` (`decode-child` or
    /// `replay-child`), as the child reports it (`ownPeakKiB`). Not `wait4`'s `ru_maxrss`:
    /// Linux carries a process's peak over `execve`, and a child spawned from here shares
    /// this process's memory until its exec, so it would report this process's peak when
    /// that is higher (it is, after the in-process replays).
    static func childPeakMiB(_ mode: String, _ path: String) -> Double {
        let report = "\(path).peak"
        guard
            let status = ProcessRun.run(
                [CommandLine.arguments[0], mode, path], executable: FileSystem.executablePath(), output: report,
                errors: "/dev/stderr")?.status
        else { fatalError("cannot start the child") }
        defer { try? FileSystem.remove(report) }
        guard status == 0, let text = try? JSONFile.read(report),
            let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first,
            let kib = Double(line)
        else { fatalError("the \(mode) child failed (status \(status))") }
        return kib / 1024
    }

    /// This process's peak resident memory in KiB: `VmHWM` of /proc/self/status.
    static func ownPeakKiB() -> Int {
        ProcessRun.ownPeakKiB()
    }

    /// The scenario for the replay figure: a registry with every corpus UID and iBeacon
    /// (20 types) and `subscriptions` subscriptions, the first `selecting` of them over those
    /// types and the rest over types no message has, written beside the corpus.
    func replayScenario(subscriptions count: Int = 100, selecting: Int = 100) -> String {
        var beacons: [JSONValue] = []
        let corpus = CaptureCorpus(advertisements: 0)
        for device in 0..<corpus.devices {
            let id = CaptureCorpus.identifier(device: device)
            let attachment: JSONValue = .object([
                "namespacedType": .string("proj/t\(device % 20)"),
                "data": .string(Base64.encode(Array("d\(device)".utf8))),
            ])
            beacons.append(
                .object([
                    "advertisedId": .object(["type": .string("EDDYSTONE"), "id": .string(Base64.encode(id))]),
                    "attachments": .array([attachment]),
                ]))
            beacons.append(
                .object([
                    "advertisedId": .object([
                        "type": .string("IBEACON"),
                        "id": .string(Base64.encode(CaptureCorpus.iBeaconID(device: device))),
                    ]),
                    "attachments": .array([attachment]),
                ]))
        }
        let subscriptions: [JSONValue] = (0..<count).map { s in
            .object([
                "time": .integer(0),
                "subscribe": .object([
                    "id": .string("s\(s)"), "deviceTypesToDiscover": .array([.string("bleBeacons")]),
                    "messageNamespace": .string("proj"), "type": .string(s < selecting ? "t\(s % 20)" : "u\(s)"),
                ]),
            ])
        }
        let doc: JSONValue = .object([
            "scenario": .integer(1),
            "description": .string("benchmark: \(count) subscriptions, \(selecting) over the corpus beacons"),
            "registry": .object(["registry": .integer(1), "beacons": .array(beacons)]),
            "events": .array(subscriptions),
        ])
        let path = "\(directory)/replay-\(count)-\(selecting).scenario.json"
        do {
            try OutputFile.write(Array(doc.serialized.utf8), to: path)
        } catch {
            fatalError("\(error)")
        }
        return path
    }

    struct ReplayFigures {
        /// The capture's advertisements (with or without beacons), as the decode counts them.
        var advertisements = 0
        var sightings = 0
        var events = 0
        var seconds = 0.0
    }

    static func replay(scenario path: String, capture: String) -> ReplayFigures {
        let scenario: Scenario
        do {
            scenario = try Scenario.load(path)
        } catch {
            fatalError("\(error)")
        }
        let t0 = cpuNow()
        let result: ReplaySession.Result
        do {
            result = try ReplaySession().run(scenario: scenario, captures: [capture], onIssue: { _ in })
        } catch {
            fatalError("\(error)")
        }
        return ReplayFigures(
            advertisements: result.accounting.advertisements + result.accounting.advertisementsWithoutData,
            sightings: result.captureSightings, events: result.events.count, seconds: cpuNow() - t0)
    }

    /// CPU seconds of this thread.
    static func cpuNow() -> Double {
        SystemClock.threadCPUSeconds()
    }
}
