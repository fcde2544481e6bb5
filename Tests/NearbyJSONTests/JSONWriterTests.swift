import NearbyJSON
import Testing

/// The byte writer against RFC 8259 (§7 strings, §6 numbers, §4–5 objects and arrays):
/// every expected text below is written by hand from the RFC and from the output contract of
/// docs/decode-output.md (six-decimal seconds, lower-case hex).
@Suite struct JSONWriterTests {
    static func text(_ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter(capacity: 16)
        body(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func stringsEscapeQuoteBackslashAndControlCharacters() {
        #expect(Self.text { $0.string("a\"b\\c") } == #""a\"b\\c""#)
        #expect(Self.text { $0.string("\n\r\t") } == #""\n\r\t""#)
        #expect(Self.text { $0.string("\u{0}\u{1}\u{8}\u{C}\u{1F}") } == #""\u0000\u0001\u0008\u000c\u001f""#)
        // U+007F and the solidus need no escape (§7: only U+0000…U+001F, quote and backslash).
        #expect(Self.text { $0.string("/\u{7F}") } == "\"/\u{7F}\"")
    }

    @Test func nonASCIIIsWrittenAsUTF8Unchanged() {
        let text = Self.text { $0.string("e\u{301} é \u{1F600} \u{10FFFF}") }
        #expect(Array(text.utf8) == [0x22] + Array("e\u{301} é \u{1F600} \u{10FFFF}".utf8) + [0x22])
        #expect(Array("\u{1F600}".utf8) == [0xF0, 0x9F, 0x98, 0x80])
    }

    @Test func integersAreDecimalWithASignWhenNegative() {
        #expect(Self.text { $0.integer(0) } == "0")
        #expect(Self.text { $0.integer(Int8(-128)) } == "-128")
        #expect(Self.text { $0.integer(Int64.min) } == "-9223372036854775808")
        #expect(Self.text { $0.integer(UInt64.max) } == "18446744073709551615")
        #expect(Self.text { $0.integer(Int?.none) } == "null")
    }

    /// Every digit count from 1 to 20, each power of ten and the number below it, against the
    /// standard library's decimal text.
    @Test func integersOfEveryLengthMatchTheStandardLibrarysText() {
        var values: [UInt64] = [0, 1, 9, 42, 99, UInt64.max]
        var power: UInt64 = 10
        for _ in 1...19 {
            values += [power - 1, power, power + 1, power / 2 * 3]
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        for value in values {
            #expect(Self.text { $0.integer(value) } == String(value), "\(value)")
        }
        // Every chunk boundary (10^4, 10^8, 10^16) with zeros and nines inside the chunks.
        for value: UInt64 in [1_0000, 1_0000_0000, 1_0000_0001, 9_0909_0909, 1234_0000_0056, 1_0000_0000_0000_0000] {
            #expect(Self.text { $0.integer(value) } == String(value), "\(value)")
        }
        for value in stride(from: UInt64(0), through: 2_000_000, by: 7) {
            if Self.text({ $0.integer(value) }) != String(value) {
                Issue.record("\(value)")
                return
            }
        }
    }

    @Test func secondsHaveExactlySixDecimals() {
        #expect(Self.text { $0.seconds(micros: 1_700_000_000_123_456) } == "1700000000.123456")
        #expect(Self.text { $0.seconds(micros: 0) } == "0.000000")
        #expect(Self.text { $0.seconds(micros: -1) } == "-0.000001")
        #expect(Self.text { $0.seconds(micros: -1_500_000) } == "-1.500000")
        #expect(Self.text { $0.fixed(36_000, decimals: 1) } == "3600.0")
        #expect(Self.text { $0.fixed(-5, decimals: 2) } == "-0.05")
    }

    @Test func doublesAreShortestTextAndIntegralOnesHaveNoFraction() {
        #expect(Self.text { $0.double(25.5) } == "25.5")
        #expect(Self.text { $0.double(-0.25) } == "-0.25")
        #expect(Self.text { $0.double(-128) } == "-128")
        #expect(Self.text { $0.double(.nan) } == "null")
        #expect(Self.text { $0.double(-.infinity) } == "null")
    }

    @Test func dyadicFractionsAreWrittenExactlyWithoutTrailingZeros() {
        #expect(Self.text { $0.dyadic(5_504, fractionBits: 8) } == "21.5")
        #expect(Self.text { $0.dyadic(-1, fractionBits: 8) } == "-0.00390625")
        #expect(Self.text { $0.dyadic(-256, fractionBits: 8) } == "-1")
        #expect(Self.text { $0.dyadic(0, fractionBits: 8) } == "0")
        #expect(Self.text { $0.dyadic(3, fractionBits: 1) } == "1.5")
        #expect(Self.text { $0.dyadic(-7, fractionBits: 0) } == "-7")
        #expect(Self.text { $0.dyadic(Int32(Int16.max), fractionBits: 8) } == "127.99609375")
    }

    @Test func dyadicFractionsMatchTheDoubleTextOfEverySigned88Value() {
        // The second implementation: Swift's shortest round-tripping text of the same Double.
        for raw in Int32(Int16.min)...Int32(Int16.max) {
            let fixed = Self.text { $0.dyadic(raw, fractionBits: 8) }
            let double = Self.text { $0.double(Double(raw) / 256) }
            if fixed != double {
                Issue.record("\(raw)/256: \(fixed), Double gives \(double)")
                return
            }
        }
        for bits in 0...8 {
            for raw in stride(from: Int32(-70_001), through: 70_001, by: 97) {
                let scale = Double(1 << bits)
                let fixed = Self.text { $0.dyadic(raw, fractionBits: bits) }
                #expect(fixed == Self.text { $0.double(Double(raw) / scale) })
            }
        }
    }

    @Test func hexIsLowerCaseTwoDigitsAByte() {
        #expect(Self.text { $0.hex([0x00, 0x0A, 0xFF, 0xC0]) } == #""000affc0""#)
        #expect(Self.text { $0.hex([UInt8]()) } == #""""#)
        let every = (0...255).map { UInt8($0) }
        let expected = every.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(Self.text { $0.hex(every) } == "\"" + expected + "\"")
    }

    /// Runs of every length from 0 to 11 starting at every byte value, so that each byte
    /// meets each position of a group of four and the tail after the last group.
    @Test func hexOfEveryLengthIsTwoDigitsAByteInOrder() {
        for length in 0...11 {
            for first in stride(from: 0, through: 255, by: 1) {
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: first &+ $0 &* 37) }
                let expected = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                #expect(Self.text { $0.hex(bytes) } == "\"" + expected + "\"", "\(bytes)")
            }
        }
    }

    /// Strings of every length from 0 to 100, plain and with a quote at ten places each, so
    /// that each length a copy handles in its own way (under 4, 8, 16, 32 and 64 bytes, and
    /// longer) is met whole and as the runs around an escape (RFC 8259 §7).
    @Test func stringsOfEveryLengthAreCopiedWholeAndInOrder() {
        for length in 0...100 {
            // Printable ASCII from "#" to "[": neither a quote nor a backslash.
            let plain = (0..<length).map { UInt8(0x23 + ($0 * 7) % 57) }
            let whole = String(decoding: plain, as: UTF8.self)
            #expect(Self.text { $0.string(whole) } == "\"" + whole + "\"", "\(length)")
            for at in stride(from: 0, to: length, by: max(1, length / 9)) {
                var quoted = plain
                quoted[at] = UInt8(ascii: "\"")
                let expected: [UInt8] = [0x22] + plain[..<at] + [0x5C, 0x22] + plain[(at + 1)...] + [0x22]
                let text = Self.text { $0.string(String(decoding: quoted, as: UTF8.self)) }
                #expect(Array(text.utf8) == expected, "\(length) \(at)")
            }
        }
    }

    /// `copyBytes` copies as `memmove` does, when the two runs overlap too: runs of 0 to 100
    /// bytes moved by up to 17 bytes either way inside one buffer, against the move made on
    /// an array by hand.
    @Test func shortCopiesMoveBytesAsMemmoveDoes() {
        for n in 0...100 {
            for shift in -17...17 {
                let original = (0..<140).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                var expected = original
                for i in 0..<n { expected[20 + shift + i] = original[20 + i] }
                var moved = original
                moved.withUnsafeMutableBufferPointer { b in
                    JSONWriter.copyBytes(from: b.baseAddress! + 20, to: b.baseAddress! + 20 + shift, count: n)
                }
                #expect(moved == expected, "\(n) bytes moved by \(shift)")
            }
        }
    }

    @Test func plainMembersAreWrittenWithoutEscaping() {
        let text = Self.text { w in
            w.beginObject()
            w.member("a", plain: "ADV_NONCONN_IND")
            w.member("b", plain: nil, else: "x\"y")
            w.member("c", plain: "")
            w.endObject()
        }
        #expect(text == #"{"a":"ADV_NONCONN_IND","b":"x\"y","c":""}"#)
    }

    @Test func commasSeparateMembersAndElementsAtEveryLevel() {
        let text = Self.text { w in
            w.beginObject()
            w.key("a")
            w.beginArray()
            w.integer(1)
            w.null()
            w.beginObject()
            w.endObject()
            w.beginArray()
            w.endArray()
            w.bool(false)
            w.endArray()
            w.key("b")
            w.beginObject()
            w.key("c")
            w.bool(true)
            w.endObject()
            w.escapedKey("d e\"")
            w.string("")
            w.endObject()
            w.newline()
            w.beginObject()
            w.endObject()
        }
        #expect(text == "{\"a\":[1,null,{},[],false],\"b\":{\"c\":true},\"d e\\\"\":\"\"}\n{}")
    }

    @Test func valueTreesAreWrittenWithKeysInUTF8Order() {
        let tree = JSONValue.object([
            "b": .integer(-1), "a": .array([.null, .number("-0.50"), .double(1.5)]), "B": .string("\u{1F600}"),
            "é": .bool(true), "z": .object([:]),
        ])
        // "B" (0x42) < "a" (0x61) < "b" < "z" (0x7A) < "é" (0xC3 0xA9).
        #expect(tree.serialized == #"{"B":"😀","a":[null,-0.50,1.5],"b":-1,"z":{},"é":true}"#)
    }

    @Test func numbersAreEqualByValueWhicheverCaseHoldsThem() {
        #expect(JSONValue.integer(3) == .number("3.0"))
        #expect(JSONValue.double(3) == .number("3"))
        #expect(JSONValue.number("-5.25") == .double(-5.25))
        #expect(JSONValue.integer(9_007_199_254_740_993) != .number("9007199254740992"))
        #expect(JSONValue.integer(1) != .string("1"))
        #expect(Set([JSONValue.integer(3), .number("3.00"), .double(3)]).count == 1)
    }

    @Test func removeAllStartsAFreshTextWithoutAComma() {
        var w = JSONWriter(capacity: 1024)
        w.integer(1)
        w.removeAll()
        w.integer(2)
        #expect(w.bytes == Array("2".utf8) && w.count == 1)
    }

    @Test func theBufferGrowsPastItsFirstCapacity() {
        var w = JSONWriter(capacity: 1)
        let long = String(repeating: "x", count: 10_000)
        w.string(long)
        w.hex([UInt8](repeating: 0xAB, count: 5_000))
        #expect(w.count == 10_002 + 1 + 10_002)
        #expect(w.bytes.suffix(3) == Array("ab\"".utf8))
    }
}
