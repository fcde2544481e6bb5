import ArgumentParser
import NearbyBytes
import NearbyDecode
import NearbyJSON
import NearbyMessages
import NearbyReplay
import NearbyRunner
import NearbySystem
import NearbyTimeline

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Replay captures, sound files and a scenario through the subscription engine and print the callbacks.",
        discussion: """
            Sightings decoded from the captures (Eddystone-UID/EID, iBeacon, AltBeacon, BLE token v1) \
            and from the sound files (NUT v1 audio tokens, each sighted at its frame's end; the file's \
            first sample at scenario time --audio-start) are merged in time order with the scenario's \
            events and fed to the reference engine. \
            Prints one JSON object per event (keys sorted: event, time in seconds of the scenario's \
            time base, subscription or publication, message with namespace, type and base64 \
            content, granted or hasError). Rules: docs/spec/engine.md; files: docs/scenario-format.md. \
            Memory stays bounded: beyond 131,072 sightings, sorted runs of them go to an unnamed \
            temporary file in $TMPDIR (else /tmp), 56 bytes a sighting. \
            Exit status 1 when the scenario, registry or a capture cannot be used, or that file \
            cannot be written; 2 when the callbacks were printed but some records of the captures \
            could not be decoded (damage skipped, a link type that is not supported: \
            docs/damaged-captures.md), said on standard error. \
            With --live SOURCE, sightings come from a running controller as they arrive and each \
            callback is printed when it fires: scenario time 0 is the moment scanning started, \
            scenario events and lost timers fire on the host's clock (docs/live.md). \
            With --reorder-window, one capture is replayed as it is read, a pipe as it arrives \
            (docs/scenario-format.md).
            """)

    @Option(help: "The scenario file (JSON).")
    var scenario: String

    @Option(name: .customLong("capture"), help: "A capture file to take sightings from (repeatable).")
    var captures: [String] = []

    @Option(name: .customLong("audio"), help: "A sound file to take audio token sightings from (repeatable).")
    var audio: [String] = []

    @Option(help: "Scenario time of the sound files' first sample, seconds.")
    var audioStart: Double = 0

    @Option(help: "A registry file that replaces the scenario's registry.")
    var registry: String?

    @OptionGroup var output: FormatOption

    @Flag(
        help: """
            Explain: for every sighting, what it did for each subscription (counted as which \
            messages, or the rule of docs/spec/engine.md that stopped it), and for every event the \
            evidence (the sighting, timer or scenario event behind it). JSON lines then carry \
            `kind`: event, sighting or evidence (docs/scenario-format.md).
            """)
    var explain = false

    @Flag(
        help: """
            Subscribe at scenario time 0 to everything the captures and sound files can stand for: the \
            project's messages, and the reserved messages of every Eddystone-UID (__reserved_namespace/\
            __eddystone_uid) and iBeacon (__reserved_namespace/__i_beacon_id), as subscriptions \
            subscribe-all/project, subscribe-all/eddystone-uid and subscribe-all/ibeacon \
            (docs/scenario-format.md, "Subscribing to everything").
            """)
    var subscribeAll = false

    @Flag(
        help: """
            Print the decoding faults of the captures as one line with their count by code, instead of each \
            one (the exit status still says that some record could not be decoded).
            """)
    var quiet = false

    @Option(
        help: ArgumentHelp(
            """
            Scenario time 0 at this Unix time (seconds, up to six decimals), instead of the scenario's timeOrigin.
            """, valueName: "unix-seconds"))
    var timeOrigin: ExactSeconds?

    @Option(
        help: ArgumentHelp(
            """
            Stop the replay at this scenario time (seconds, up to six decimals): the scenario's events after it are \
            not applied, and messages still found stay found. Replaces the scenario's end.
            """, valueName: "seconds"))
    var end: ExactSeconds?

    @OptionGroup var live: LiveOptions

    @Option(
        help: ArgumentHelp(
            """
            Replay one capture as it is read (a pipe as it arrives), writing each callback as soon as no later \
            record can come before it: a sighting is fed once the capture has reached a time this many seconds \
            past it. An advertisement that comes later than that after a later one is not replayed: counted, \
            said on standard error, exit status 2 (docs/spec/engine.md, ENGINE-O1B).
            """, valueName: "seconds"))
    var reorderWindow: ExactSeconds?

    @Option(
        help: """
            Also write a timeline of the replay to this HTML file (self-contained; docs/timeline.md): \
            found-to-lost bars per subscription and message, sightings per source with RSSI, device \
            state, expiries and errors; hovering a mark shows its explain line.
            """)
    var html: String?

    func validate() throws {
        if live.isLive {
            if !captures.isEmpty || !audio.isEmpty {
                throw ValidationError("--live reads a controller: leave out --capture and --audio.")
            }
            if explain || html != nil {
                throw ValidationError(
                    "--explain and --html read a whole replay: replay the capture written with --write afterwards.")
            }
            if timeOrigin != nil || end != nil {
                throw ValidationError("--live starts scenario time when scanning starts and ends it at the stop.")
            }
        }
        if let reorderWindow {
            if captures.count != 1 || !audio.isEmpty || live.isLive {
                throw ValidationError("--reorder-window replays one capture as it is read: give one --capture.")
            }
            if explain || html != nil {
                throw ValidationError("--explain and --html read a whole replay: leave out --reorder-window.")
            }
            if reorderWindow.micros < 0 { throw ValidationError("--reorder-window takes seconds, 0 or more.") }
        }
        if let html, let problem = OutputPath.problemWritingFile(html) { throw ValidationError("--html: \(problem)") }
        if !audioStart.isFinite || abs(audioStart) > 1e9 {
            throw ValidationError("--audio-start takes seconds, at most 1e9 in size.")
        }
    }

    func run() throws {
        var stderr = StandardError()
        var loaded: Scenario
        do {
            loaded = try Scenario.load(scenario, registryOverride: registry)
        } catch {
            print("error: \(error)", to: &stderr)
            throw ExitCode(ExitStatus.failure)
        }
        if let timeOrigin { loaded.timeOrigin = .unixMicros(timeOrigin.micros) }
        if let end {
            loaded.inputs.removeAll { $0.time > end.micros }
            loaded.endMicros = end.micros
        }
        if subscribeAll { loaded = loaded.subscribingToEverything() }
        if live.isLive { return try runLive(loaded) }
        if let reorderWindow { return try runAsRead(loaded, window: reorderWindow) }
        let result: ReplaySession.Result
        var faults: [String: Int] = [:]
        // Without explanations and a timeline, each event is printed as it comes.
        let keepsEvents = explain || html != nil
        let stream =
            keepsEvents ? nil : ReplayOutput.Stream(replayOutput) { _ = FileDescriptorOutput.write($0, fd: 1) }
        do {
            let files = audio.map {
                ReplaySession.AudioFile(path: $0, startMicros: Int64((audioStart * 1e6).rounded()))
            }
            var session = ReplaySession()
            session.explain = keepsEvents
            result = try session.run(
                scenario: loaded, captures: captures, audio: files,
                onIssue: { issue in
                    if quiet {
                        faults[issue.error.key, default: 0] += 1
                    } else {
                        var e = StandardError()
                        print(issue.description, to: &e)
                    }
                }, onEvents: stream.map { s in { s.events($1, originUnixMicros: $0) } })
        } catch {
            print("error: \(error)", to: &stderr)
            throw ExitCode(ExitStatus.failure)
        }
        if result.untimedBeaconAdvertisements > 0 {
            print(
                "note: \(result.untimedBeaconAdvertisements) beacon advertisements have no timestamp and were not "
                    + "replayed",
                to: &stderr)
        }
        if !faults.isEmpty {
            let count = faults.values.reduce(0, +)
            print(
                "note: \(count) decoding fault\(count == 1 ? "" : "s") in the captures ("
                    + faults.keys.sorted().map { "\($0) \(faults[$0]!)" }.joined(separator: ", ")
                    + "); without --quiet each is printed",
                to: &stderr)
        }
        if let stream {
            stream.finish(originUnixMicros: result.originUnixMicros)
        } else {
            replayOutput.write(result) { _ = FileDescriptorOutput.write($0, fd: 1) }
        }
        if let html {
            var notes = ["scenario \(scenario)"]
            notes += captures.map { "capture \($0)" } + audio.map { "sound file \($0) from \(audioStart) s" }
            let timeline = ReplayTimeline.make(
                scenario: loaded, result: result, title: "Replay of " + (loaded.description ?? scenario), notes: notes)
            do {
                try OutputFile.write(Array(TimelineHTML.render(timeline).utf8), to: html)
            } catch {
                print("error: \(error)", to: &stderr)
                throw ExitCode(ExitStatus.failure)
            }
        }
        if let loss = result.accounting.lossSummary {
            print("warning: captures: \(loss); the callbacks miss whatever those records held", to: &stderr)
            throw ExitCode(ExitStatus.partiallyDecoded)
        }
    }

    /// How the events (and with --explain the explanations) are printed.
    var replayOutput: ReplayOutput {
        ReplayOutput(format: output.format == .table ? .table : .json, explain: explain)
    }
}
