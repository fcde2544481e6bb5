/// A strict RFC 8259 parser for input files (scenarios, registries, vectors). Numbers are kept
/// as their source text (`JSONValue.number`), so decimal seconds convert to microseconds
/// exactly and large integers are never rounded through a Double. Duplicate object keys are
/// an error (RFC 8259 §4 leaves them undefined; a conformance input must not be ambiguous).
/// Nesting is limited to `maximumDepth` so hostile input cannot exhaust the stack. An error
/// is a `JSONInputError` at a line and column (both from 1; columns count bytes), code
/// `syntax`, or `duplicateKey` with the JSON path of the repeated member.
public struct JSONParser {
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON text (a UTF-8 byte order mark is skipped).
    public static func parse(_ bytes: [UInt8]) throws(JSONInputError) -> JSONValue {
        var p = JSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.index = 3 }
        p.skipSpace()
        let value: JSONValue
        do {
            value = try p.value()
        } catch {
            throw error.within("$")
        }
        p.skipSpace()
        if p.index < bytes.count { throw p.error("unexpected text after the JSON value") }
        return value
    }

    public static func parse(_ text: String) throws(JSONInputError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The members of the object `bytes` whose keys are in `keys`, each parsed as `parse`
    /// parses it (a key given twice keeps its last value). The other members' values are
    /// passed over without being built, checked for their structure only (brackets,
    /// separators, literals, numbers, the ends of strings), not for their strings' escapes
    /// and UTF-8; nothing after the object is looked at. For reading a few members of the
    /// lines this program writes (`decode --filter`), where a whole parse builds all of them.
    package static func members(
        of bytes: [UInt8], keeping keys: [String]
    ) throws(JSONInputError) -> [String: JSONValue] {
        var p = JSONParser(bytes)
        p.skipSpace()
        guard p.index < bytes.count, bytes[p.index] == UInt8(ascii: "{") else { throw p.error("expected an object") }
        var members: [String: JSONValue] = [:]
        try p.walkObject { (p, key, _) throws(JSONInputError) in
            if keys.contains(key) {
                members[key] = try p.value()
            } else {
                try p.skipValue()
            }
        }
        return members
    }

    /// Walks the object at `index` (its `{`), calling `member` with each key (passed over,
    /// and "", when not `readingKeys`) and the offset of its opening quote, the parser then
    /// at the key's value, which `member` consumes.
    private mutating func walkObject(
        readingKeys: Bool = true, _ member: (inout JSONParser, String, Int) throws(JSONInputError) -> Void
    ) throws(JSONInputError) {
        defer { depth -= 1 }
        guard try enter(closing: UInt8(ascii: "}")) else { return }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = index
            var key = ""
            if readingKeys { key = try string() } else { try skipString() }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after a key")
            }
            index += 1
            skipSpace()
            try member(&self, key, keyStart)
            guard try another(closing: UInt8(ascii: "}"), in: "object") else { return }
        }
    }

    /// After a member or an element: true at `,` (another follows), false at `closing` (the
    /// end of the `container`), either passed over.
    private mutating func another(closing: UInt8, in container: StaticString) throws(JSONInputError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw error("the input ended inside an \(container)") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return true
        case closing:
            index += 1
            return false
        default: throw error("expected ',' or '\(Unicode.Scalar(closing))' in an \(container)")
        }
    }

    /// Passes over the value at `index`, checking its structure (`members(of:keeping:)`).
    private mutating func skipValue() throws(JSONInputError) {
        guard index < bytes.count else { throw error("the input ended where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try walkObject(readingKeys: false) { (p, _, _) throws(JSONInputError) in try p.skipValue() }
        case UInt8(ascii: "["):
            try walkArray { (p, _) throws(JSONInputError) in try p.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        default: _ = try value()  // a literal or a number: nothing to build
        }
    }

    /// Passes over the string at `index` (its opening quote) to its closing quote.
    private mutating func skipString() throws(JSONInputError) {
        index += 1
        while true {
            guard index < bytes.count else { throw error("the input ended inside a string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if b < 0x20 { throw error("control character in a string (escape it)") }
            index += b == UInt8(ascii: "\\") ? 2 : 1
        }
    }

    private func error(_ reason: String, at position: Int? = nil) -> JSONInputError {
        let end = min(position ?? index, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return JSONInputError(line: line, column: end - lineStart + 1, code: .syntax, reason: reason)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(JSONInputError) -> JSONValue {
        guard index < bytes.count else { throw error("the input ended where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character where a value was expected")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONInputError) {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + w.count <= bytes.count, bytes[index..<index + w.count].elementsEqual(w) else {
            throw error("invalid literal (expected \(word))")
        }
        index += w.count
    }

    /// Enters the container at `index`, passing over its opening bracket, one level deeper
    /// (the caller leaves it); false when it closes at once (`closing` passed over too).
    private mutating func enter(closing: UInt8) throws(JSONInputError) -> Bool {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] == closing else { return true }
        index += 1
        return false
    }

    private mutating func object() throws(JSONInputError) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        try walkObject { (p, key, keyStart) throws(JSONInputError) in
            let v: JSONValue
            do throws(JSONInputError) {
                v = try p.value()
            } catch {
                throw error.within(JSONNode.step(key))
            }
            if fields.updateValue(v, forKey: key) != nil {
                var duplicate = p.error("duplicate key \"\(key)\"", at: keyStart)
                (duplicate.path, duplicate.code) = (JSONNode.step(key), .duplicateKey)
                throw duplicate
            }
        }
        return .object(fields)
    }

    private mutating func array() throws(JSONInputError) -> JSONValue {
        var items: [JSONValue] = []
        try walkArray { (p, i) throws(JSONInputError) in
            do throws(JSONInputError) {
                items.append(try p.value())
            } catch {
                throw error.within("[\(i)]")
            }
        }
        return .array(items)
    }

    /// Walks the array at `index` (its `[`), calling `element` with each element's index, the
    /// parser then at the element, which `element` consumes.
    private mutating func walkArray(
        _ element: (inout JSONParser, Int) throws(JSONInputError) -> Void
    ) throws(JSONInputError) {
        defer { depth -= 1 }
        guard try enter(closing: UInt8(ascii: "]")) else { return }
        var count = 0
        while true {
            skipSpace()
            try element(&self, count)
            count += 1
            guard try another(closing: UInt8(ascii: "]"), in: "array") else { return }
        }
    }

    private mutating func number() throws(JSONInputError) -> JSONValue {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) {
                p.index += 1
            }
            return p.index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let n = digits(&self)
        if n == 0 { throw error("a number needs digits") }
        if n > 1, bytes[intStart] == UInt8(ascii: "0") {
            throw error("a number may not have leading zeros", at: intStart)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("a decimal point needs digits after it") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            if digits(&self) == 0 { throw error("an exponent needs digits") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func string() throws(JSONInputError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        let start = index
        var runStart = index
        func flush(_ p: JSONParser, _ to: Int, _ s: inout String.UnicodeScalarView) {
            s.append(contentsOf: String(decoding: p.bytes[runStart..<to], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("the input ended inside a string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try validateUTF8(runStart..<index)
                defer { index += 1 }
                // Without an escape, the string is its bytes: made at once, not scalar by scalar.
                if runStart == start { return String(decoding: bytes[runStart..<index], as: UTF8.self) }
                flush(self, index, &scalars)
                return String(scalars)
            }
            if b < 0x20 { throw error("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            try validateUTF8(runStart..<index)
            flush(self, index, &scalars)
            index += 1
            guard index < bytes.count else { throw error("the input ended inside an escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                scalars.append(Unicode.Scalar(code)!)
            default: throw error("invalid escape character", at: index - 1)
            }
            runStart = index
        }
    }

    private mutating func hex4() throws(JSONInputError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("the input ended inside a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in a \\u escape")
            }
            v = v << 4 | UInt32(d)
            index += 1
        }
        return v
    }

    private func validateUTF8(_ range: Range<Int>) throws(JSONInputError) {
        if bytes[range].allSatisfy({ $0 < 0x80 }) { return }  // ASCII
        var it = bytes[range].makeIterator()
        var decoder = UTF8()
        var offset = range.lowerBound
        while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: return
            case .error: throw error("invalid UTF-8 in a string", at: offset)
            }
        }
    }
}

extension JSONInputError {
    /// The parser's error as seen from the value that holds the one it is in: `step` (`.key`
    /// or `[3]`) goes before the path, which is relative (no `$`) until `parse` roots it.
    fileprivate func within(_ step: @autoclosure () -> String) -> JSONInputError {
        guard let path else { return self }
        var outer = self
        outer.path = step() + path
        return outer
    }
}
