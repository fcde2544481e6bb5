import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyReplay
import NearbyRunner
import NearbySystem

/// The request line for a vector (INTEROP-18 to INTEROP-24): `{"id", "level", …input}`. The
/// id is the request's own (an opaque id of the run: `BlindInputs`), not the vector's; files
/// are sent as absolute paths, of copies when `copy` makes them; a scenario is sent
/// self-contained: its registry inline, `world` and `description` removed, the time origin
/// fixed, and the sightings of its captures and sound files (decoded by the reference
/// decoder) merged into its events in replay order (ENGINE-O1A).
enum InteropRequest {
    struct Failure: Error { var reason: String }

    static func make(
        _ v: Vector, id: String, copy: (String) throws(Failure) -> String = { $0 }
    ) throws(Failure) -> JSONValue {
        var o: [String: JSONValue] = ["id": .string(id), "level": .string(InteropLevel(v.kind).rawValue)]
        switch v.input {
        case .frame(let f):
            switch f {
            case .adData(let b): o["frame"] = .object(["adData": .string(Hex.encode(b))])
            case .h4(let b): o["frame"] = .object(["h4": .string(Hex.encode(b))])
            case .linkLayer(let b): o["frame"] = .object(["linkLayer": .string(Hex.encode(b))])
            }
        case .capture(let path): o["capture"] = .string(absolute(try copy(path)))
        case .audio(let path): o["audio"] = .string(absolute(try copy(path)))
        case .scenarioDocument(let doc):
            var doc = doc
            if case .object(var fields) = doc {
                fields["description"] = nil
                doc = .object(fields)
            }
            o["scenario"] = doc
        case .scenario(let scenario, let captures, let audio):
            o["scenario"] = try document(v, scenario: scenario, captures: captures, audio: audio)
        }
        return .object(o)
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = FileSystem.currentDirectory() else { return path }
        return cwd + "/" + path
    }

    static func document(
        _ v: Vector, scenario: Scenario, captures: [String], audio: [ReplaySession.AudioFile]
    ) throws(Failure) -> JSONValue {
        var root: [String: JSONValue]
        var scenarioFile: String?
        switch v.scenarioSource {
        case .inline(let value)?:
            guard case .object(let o) = value else { throw Failure(reason: "internal: scenario is not an object") }
            root = o
        case .file(let path)?:
            scenarioFile = path
            do {
                guard case .object(let o) = try JSONFile.load(path).value else {
                    throw Failure(reason: "\(path): not an object")
                }
                root = o
            } catch let f as Failure {
                throw f
            } catch {
                throw Failure(reason: "\(error)")
            }
        case nil:
            throw Failure(reason: "internal: no scenario source")
        }
        root["world"] = nil
        root["description"] = nil
        if case .string(let registryPath)? = root["registry"], let scenarioFile {
            let dir = scenarioFile.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
                separator: "/")
            let path =
                registryPath.hasPrefix("/") ? registryPath : (dir.isEmpty ? registryPath : dir + "/" + registryPath)
            do { root["registry"] = try JSONFile.load(path).value } catch { throw Failure(reason: "\(error)") }
        }
        let collected: (originUnixMicros: Int64, sightings: [Sighting])
        do {
            collected = try ReplaySession().sightings(scenario: scenario, captures: captures, audio: audio)
        } catch {
            throw Failure(reason: error.reason)
        }
        root["timeOrigin"] = .object(["unixSeconds": .seconds(micros: collected.originUnixMicros)])
        // Merge: the scenario's own events first at the same microsecond (O1).
        var events: [JSONValue] = []
        var own: [JSONValue] = []
        if case .array(let list)? = root["events"] { own = list }
        var j = 0
        for e in own {
            let t: Int64 =
                if case .object(let eo) = e, let tv = eo["time"], let m = EventComparison.micros(tv) { m } else { .min }
            while j < collected.sightings.count, collected.sightings[j].timeMicros < t {
                events.append(sightingEvent(collected.sightings[j]))
                j += 1
            }
            events.append(e)
        }
        while j < collected.sightings.count {
            events.append(sightingEvent(collected.sightings[j]))
            j += 1
        }
        root["events"] = .array(events)
        return .object(root)
    }

    static func sightingEvent(_ s: Sighting) -> JSONValue {
        var o: [String: JSONValue] = [:]
        let hex = JSONValue.string(Hex.encode(s.identity.bytes))
        switch s.identity.kind {
        case .token:
            o["token"] = hex
            o["medium"] = .string(s.medium == .audio ? "audio" : "ble")
        case .eddystoneUID: o["eddystoneUid"] = hex
        case .iBeacon: o["iBeacon"] = hex
        case .altBeacon: o["altBeacon"] = hex
        case .eddystoneEID: o["eddystoneEid"] = hex
        }
        if let rssi = s.rssiDBm { o["rssi"] = .int(rssi) }
        return .object(["time": .seconds(micros: s.timeMicros), "sighting": .object(o)])
    }
}
