import NearbyJSON
import Testing

/// The strict JSON parser and the path-aware readers, against RFC 8259 and RFC 4648 by hand.
@Suite struct JSONParserTests {
    @Test func parsesEveryValueKindAndKeepsNumberText() throws {
        let v = try JSONParser.parse(#" {"a": [1, -0.50, 2e3, true, false, null, "x\"\u00e9\ud83d\ude00\n"]} "#)
        #expect(
            v
                == .object([
                    "a": .array([
                        .number("1"), .number("-0.50"), .number("2e3"), .bool(true), .bool(false), .null,
                        .string("x\"é😀\n"),
                    ])
                ]))
    }

    @Test(arguments: [
        ("", 1, 1, "ended"), ("{\"a\":1,}", 1, 8, "expected a string key"), ("[1 2]", 1, 4, "expected ','"),
        ("01", 1, 1, "leading zeros"), ("1.", 1, 3, "digits after"), ("{\"a\":1,\"a\":2}", 1, 8, "duplicate key"),
        ("\"\\ud800\"", 1, 8, "surrogate"), ("\"a\nb\"", 1, 3, "control character"), ("tru", 1, 1, "literal"),
        ("{}\n x", 2, 2, "after the JSON value"), ("\"\\x\"", 1, 3, "invalid escape"),
    ])
    func rejectsInvalidTextWithItsPosition(text: String, line: Int, column: Int, reason: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line && error.column == column && error.reason.contains(reason), "\(error)")
        }
    }

    // What `decode --filter` reads of a line: the members named, as the whole parse gives
    // them; the others passed over, their structure still checked.
    @Test func membersKeepsTheNamedMembersAsTheWholeParseGivesThem() throws {
        let text = #"{"a": [1, {"x": "\u00e9"}], "b": {"c": [true, null, "q\"]}"]}, "d": -2.5e3, "e": "s\\"}"#
        guard case .object(let all) = try JSONParser.parse(text) else {
            Issue.record("not an object")
            return
        }
        let kept = try JSONParser.members(of: Array(text.utf8), keeping: ["a", "d", "z"])
        #expect(kept == ["a": all["a"]!, "d": all["d"]!])
        #expect(try JSONParser.members(of: Array(text.utf8), keeping: []) == [:])
        for bad in [#"{"a":1,"b":[1 2]}"#, #"{"b":{"c" 1},"a":1}"#, #"{"a":1,"b":"open}"#, #"{"b":tru,"a":1}"#, "[1]"] {
            #expect(throws: JSONInputError.self, "\(bad)") {
                try JSONParser.members(of: Array(bad.utf8), keeping: ["a"])
            }
        }
    }

    @Test func rejectsInvalidUTF8() {
        let error = #expect(throws: JSONInputError.self) { _ = try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(error?.code == .syntax)
    }

    @Test func aRepeatedKeyIsADuplicateKeyAtItsPath() {
        let error = #expect(throws: JSONInputError.self) { _ = try JSONParser.parse(#"{"a":{"b":1,"b":2}}"#) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.path == "$.a.b")
        #expect((error?.line, error?.column) == (1, 13))
    }

    @Test func anErrorSaysItsFileThenWhereThenWhy() {
        let error = #expect(throws: JSONInputError.self) { _ = try JSONParser.parse("{\n\"a\":1,\n\"a\":2}") }
        // The second "a" starts line 3, column 1.
        #expect(error?.description == #"$.a: duplicate key "a" (line 3, column 1)"#)
        #expect(error?.in(file: "s.json").description == #"s.json: $.a: duplicate key "a" (line 3, column 1)"#)
        let syntax = #expect(throws: JSONInputError.self) { _ = try JSONParser.parse("[1,]") }
        #expect(syntax?.path == nil && syntax?.location == "line 1, column 4")
        let atPath = JSONInputError(path: "$.x", code: .wrongType, reason: "expected a string")
        #expect(atPath.description == "$.x: expected a string")
        let unread = JSONInputError(file: "f.json", code: .unreadable, reason: "cannot open")
        #expect(unread.description == "f.json: cannot open" && unread.location.isEmpty)
    }

    @Test func boundsNestingDepth() {
        let deep =
            String(repeating: "[", count: JSONParser.maximumDepth + 1)
            + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONInputError.self) { _ = try JSONParser.parse(deep) }
        let ok =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect((try? JSONParser.parse(ok)) != nil)
    }

    @Test(
        arguments: [
            ("0", 0), ("1", 1_000_000), ("1.5", 1_500_000), ("0.000001", 1), ("15.028558", 15_028_558),
            ("2e3", 2_000_000_000), ("1.5e-6", nil), ("1e-6", 1), ("1.0000000", 1_000_000), ("-2.25", -2_250_000),
            ("0.0000001", nil), ("100000000000000", nil),
        ] as [(String, Int64?)])
    func secondsConvertExactlyToMicroseconds(text: String, micros: Int64?) {
        let node = JSONNode(.number(text))
        let got = try? node.microseconds(in: Int64.min...Int64.max)
        #expect(got == micros, "\(text)")
    }

    @Test func readersNameThePathOfWhatTheyReject() throws {
        let root = JSONNode(try JSONParser.parse(#"{"a": {"b": [1, "x"]}}"#))
        let o = try root.object(allowed: ["a"])
        let items = try o.required("a").object(allowed: ["b"]).required("b").array()
        #expect(
            throws: JSONInputError(path: "$.a.b[1]", code: .wrongType, reason: "expected an integer, found a string")
        ) {
            _ = try items[1].integer(in: 0...9)
        }
        #expect(throws: JSONInputError(path: "$.a.b[0]", code: .outOfRange, reason: "1 is out of range 2…9")) {
            _ = try items[0].integer(in: 2...9)
        }
        #expect(throws: JSONInputError(path: "$.a", code: .unknownField, reason: "unknown field \"a\" (allowed: z)")) {
            _ = try root.object(allowed: ["z"])
        }
        #expect(throws: JSONInputError(path: "$.a", code: .missingField, reason: "missing required field \"c\"")) {
            _ = try o.required("a").object(allowed: ["b"]).required("c")
        }
    }

    @Test func anUnknownFieldIsNamedByItsOwnPathQuotedWhenItIsNoPlainName() throws {
        let root = JSONNode(try JSONParser.parse(#"{"x": {"ok": 1, "a b": 2, "1st": 3, "q\"": 4, "_k9": 5}}"#))
        let x = try root.object(allowed: ["x"]).required("x")
        #expect(
            throws: JSONInputError(
                path: #"$.x["1st"]"#, code: .unknownField, reason: "unknown field \"1st\" (allowed: ok)")
        ) {
            _ = try x.object(allowed: ["ok"])
        }
        #expect(
            throws: JSONInputError(
                path: #"$.x["a b"]"#, code: .unknownField, reason: "unknown field \"a b\" (allowed: ok, 1st, _k9)")
        ) {
            _ = try x.object(allowed: ["ok", "1st", "_k9"])
        }
        #expect(
            throws: JSONInputError(
                path: "$.x._k9", code: .unknownField, reason: "unknown field \"_k9\" (allowed: ok, 1st, a b, q\")")
        ) {
            _ = try x.object(allowed: ["ok", "1st", "a b", "q\""])
        }
        #expect(
            throws: JSONInputError(
                path: #"$.x["q\""]"#, code: .unknownField, reason: "unknown field \"q\"\" (allowed: ok, 1st, a b, _k9)")
        ) { _ = try x.object(allowed: ["ok", "1st", "a b", "_k9"]) }
    }

    @Test func base64FollowsRFC4648() {
        // RFC 4648 §10 test vectors.
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        for bad in ["Zg", "Zg=", "Z===", "Zh==", "Zm9v!", "Zg==Zg==", "Zm=v"] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func outputSortsKeysByUTF8Bytes() {
        let v = JSONValue.object(["b": .integer(1), "a": .array([.string("é\u{1}")]), "B": .null])
        #expect(v.serialized == #"{"B":null,"a":["é\u0001"],"b":1}"#)
    }
}
