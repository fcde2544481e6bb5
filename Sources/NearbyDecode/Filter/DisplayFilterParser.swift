import NearbyJSON

/// Reads a display filter (`DisplayFilter`'s grammar) by recursive descent, one token ahead.
struct DisplayFilterParser {
    typealias Node = DisplayFilter.Node
    typealias Failure = DisplayFilter.SyntaxError

    enum Token: Equatable {
        case name(String)
        case string(String)
        case number(String)
        case symbol(String)
        case end
    }

    let characters: [Character]
    var position = 0
    /// The current token and where it starts.
    var token = Token.end
    var tokenStart = 0

    init(_ text: String) {
        characters = Array(text)
    }

    /// The fields of a line, of a beacon (`beacon.`), of an AD structure (`ad.`) and of an
    /// error (`error.`), as `decode` prints them (docs/decode-output.md).
    static let lineFields: Set<String> = [
        "address", "addressType", "channel", "data", "directAddress", "directAddressType", "eventType", "eventTypeRaw",
        "extended", "extended.dataStatus", "extended.fragments", "extended.periodicInterval", "extended.primaryPhy",
        "extended.secondaryPhy", "extended.sid", "extended.truncated", "file", "record", "rssi", "scanResponse",
        "source", "time", "txPower",
    ]
    static let beaconFields: Set<String> = [
        "type", "namespace", "instance", "reserved", "txPower", "scheme", "encodedUrl", "url", "reservedBytes",
        "version", "batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds", "data",
        "encryptedTlm", "salt", "mic", "nordicPadding", "telemetry", "telemetryError", "eid", "resolved",
        "resolveError", "hashedFlags", "frameType", "uuid", "major", "minor", "measuredPower", "manufacturer",
        "beaconId", "token", "flags",
    ]
    static let adFields: Set<String> = [
        "adType", "adTypeName", "type", "flags", "uuids", "names", "name", "txPower", "data", "uuid", "uuidName",
        "appearance", "appearanceName", "company", "companyName",
    ]
    static let errorFields: Set<String> = ["code", "layer", "offset", "reason"]

    mutating func filter() throws(Failure) -> Node {
        try advance()
        let node = try or()
        guard token == .end else { throw fail("expected && or || or the end, found \(describe(token))") }
        return node
    }

    mutating func or() throws(Failure) -> Node {
        var node = try and()
        while token == .symbol("||") || token == .name("or") {
            try advance()
            node = .or(node, try and())
        }
        return node
    }

    mutating func and() throws(Failure) -> Node {
        var node = try unary()
        while token == .symbol("&&") || token == .name("and") {
            try advance()
            node = .and(node, try unary())
        }
        return node
    }

    mutating func unary() throws(Failure) -> Node {
        if token == .symbol("!") || token == .name("not") {
            try advance()
            return .not(try unary())
        }
        if token == .symbol("(") {
            try advance()
            let node = try or()
            guard token == .symbol(")") else { throw fail("expected ), found \(describe(token))") }
            try advance()
            return node
        }
        return try comparison()
    }

    mutating func comparison() throws(Failure) -> Node {
        guard case .name(let text) = token else { throw fail("expected a field, found \(describe(token))") }
        let field = try Self.field(text, at: tokenStart)
        try advance()
        let op: DisplayFilter.Operator
        switch token {
        case .symbol(let s) where DisplayFilter.Operator(rawValue: s) != nil: op = DisplayFilter.Operator(rawValue: s)!
        case .name("contains"): op = .contains
        case .name("matches"): op = .matches
        default: return .exists(field)
        }
        let opStart = tokenStart
        try advance()
        let valueStart = tokenStart
        let value: JSONValue
        switch token {
        case .string(let s): value = .string(s)
        case .number(let n): value = Int64(n).map(JSONValue.integer) ?? .number(n)
        case .name("true"): value = .bool(true)
        case .name("false"): value = .bool(false)
        case .name("null"): value = .null
        default: throw fail("expected a value after \(op.rawValue), found \(describe(token))")
        }
        var regex: DisplayFilter.Pattern?
        if op == .contains || op == .matches {
            guard case .string(let s) = value else {
                throw Failure(position: opStart, reason: "\(op.rawValue) compares text: give a \"string\"")
            }
            if op == .matches {
                do {
                    regex = DisplayFilter.Pattern(try Regex(s))
                } catch {
                    throw Failure(position: valueStart, reason: "not a regular expression: \(error)")
                }
            }
        }
        try advance()
        return .compare(field, op, value, regex)
    }

    /// A field's place in a line, or the error naming it.
    static func field(_ text: String, at position: Int) throws(Failure) -> DisplayFilter.Field {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let rest = parts.dropFirst().joined(separator: ".")
        let (repeated, known): (String?, Set<String>) =
            switch parts[0] {
            case "beacon": ("beacons", beaconFields)
            case "ad": ("ad", adFields)
            case "error": ("errors", errorFields)
            default: (nil, lineFields)
            }
        let name = repeated == nil ? text : rest
        guard known.contains(name) || (repeated == "beacons" && name.hasPrefix("telemetry.")) else {
            let hint =
                repeated == nil
                ? "a line's fields, beacon.NAME, ad.NAME or error.NAME (docs/decode-output.md)"
                : "one of " + known.sorted().joined(separator: ", ")
            throw Failure(position: position, reason: "unknown field \(text): expected \(hint)")
        }
        return DisplayFilter.Field(
            repeated: repeated, path: name.split(separator: ".").map(String.init), text: text)
    }

    func fail(_ reason: String) -> Failure { Failure(position: tokenStart, reason: reason) }

    func describe(_ t: Token) -> String {
        switch t {
        case .name(let n): "\(n)"
        case .string(let s): "\"\(s)\""
        case .number(let n): n
        case .symbol(let s): s
        case .end: "the end"
        }
    }

    /// Reads the next token.
    mutating func advance() throws(Failure) {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        tokenStart = position
        guard position < characters.count else {
            token = .end
            return
        }
        let c = characters[position]
        func take(_ n: Int) -> String {
            defer { position += n }
            return String(characters[position..<min(characters.count, position + n)])
        }
        let two = position + 1 < characters.count ? String(characters[position...position + 1]) : String(c)
        if ["&&", "||", "==", "!=", "<=", ">="].contains(two) {
            token = .symbol(take(2))
        } else if "()<>!".contains(c) {
            token = .symbol(take(1))
        } else if c == "\"" {
            position += 1
            var s = ""
            while position < characters.count, characters[position] != "\"" {
                if characters[position] == "\\", position + 1 < characters.count { position += 1 }
                s.append(characters[position])
                position += 1
            }
            guard position < characters.count else {
                throw Failure(position: tokenStart, reason: "unterminated string")
            }
            position += 1
            token = .string(s)
        } else if c.isNumber || (c == "-" && position + 1 < characters.count && characters[position + 1].isNumber) {
            var s = take(1)
            while position < characters.count, characters[position].isNumber || characters[position] == "." {
                s += take(1)
            }
            guard Double(s) != nil else { throw Failure(position: tokenStart, reason: "not a number: \(s)") }
            token = .number(s)
        } else if c.isLetter || c == "_" {
            var s = ""
            while position < characters.count,
                characters[position].isLetter || characters[position].isNumber || "_.".contains(characters[position])
            {
                s += take(1)
            }
            token = .name(s)
        } else {
            throw Failure(position: tokenStart, reason: "unexpected character \(c)")
        }
    }
}
