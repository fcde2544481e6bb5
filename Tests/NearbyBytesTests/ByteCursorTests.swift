import NearbyBytes
import Testing

// A `ByteCursor` borrows its bytes, so `#expect` (whose expansion copies its operands out)
// is given plain values read from the cursor first.
@Suite struct ByteCursorTests {
    @Test func readsNameTheirByteOrder() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B]
        var c = ByteCursor(bytes, layer: .file)
        #expect(try c.readUInt16LE("a") == 0x0201)
        #expect(try c.readUInt16BE("b") == 0x0304)
        #expect(try c.readUInt24LE("c") == 0x070605)
        #expect(try c.readUInt32BE("d") == 0x08090A0B)
        let atEnd = c.isAtEnd
        #expect(atEnd)
    }

    @Test func littleEndianReadsOfFourAndEightBytes() throws {
        let bytes: [UInt8] = [0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00]
        var c = ByteCursor(bytes, layer: .file)
        #expect(try c.readUInt32LE("a") == 0x1234_5678)
        #expect(try c.readInt64BE("b") == 0x100)
    }

    @Test func addressesAreReadLeastSignificantByteFirst() throws {
        let bytes: [UInt8] = [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0]
        var c = ByteCursor(bytes, layer: .file)
        #expect(try c.readAddressLE("address") == 0xC0FFEE000001)
    }

    @Test func signedReadsKeepTheSign() throws {
        let bytes: [UInt8] = [0xEE, 0xFE, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        var c = ByteCursor(bytes, layer: .file)
        #expect(try c.readInt8("tx") == -18)
        #expect(try c.readInt16BE("temp") == -384)
        #expect(try c.readInt64BE("t") == -2)
    }

    @Test func aFailedReadConsumesNothingAndNamesTheFieldOffset() throws {
        let bytes: [UInt8] = [0xAA, 0xBB, 0xCC]
        var c = ByteCursor(bytes, layer: .hciEvent)
        _ = try c.readUInt8("first")
        do {
            _ = try c.readUInt32LE("second")
            Issue.record("expected a truncation")
        } catch {
            #expect(error == DecodeError(.hciEvent, .truncated, at: 1, "second: needs 4 bytes, 2 left"))
        }
        let index = c.readerIndex
        #expect(index == 1)
        #expect(try c.readUInt16BE("again") == 0xBBCC)
    }

    @Test func aDeclaredLengthThatOverrunsIsReportedAtTheLengthField() throws {
        let bytes: [UInt8] = [0x05, 0x01, 0x02]
        var c = ByteCursor(bytes, layer: .adStructure)
        let lengthOffset = c.readerIndex
        let n = try c.readUInt8("length")
        do {
            _ = try c.carveDeclared(Int(n), declaredAt: lengthOffset, "payload")
            Issue.record("expected an overrun")
        } catch {
            #expect(error.code == .lengthOverrun)
            #expect(error.offset == 0)
            #expect(error.layer == .adStructure)
        }
        do {
            _ = try c.readDeclaredRange(Int(n), declaredAt: lengthOffset, "payload")
            Issue.record("expected an overrun")
        } catch {
            #expect(error.code == .lengthOverrun)
        }
        let index = c.readerIndex
        #expect(index == 1)
    }

    @Test func offsetsOfASubSliceAreThoseOfTheRecord() throws {
        let record: [UInt8] = [0, 1, 2, 3, 4, 5]
        let tail = record[3...]
        var c = ByteCursor(tail, layer: .file)
        let start = c.readerIndex
        #expect(start == 3)
        _ = try c.readUInt16LE("x")
        do {
            _ = try c.readUInt16LE("y")
            Issue.record("expected a truncation")
        } catch {
            #expect(error.offset == 5)
        }
    }

    @Test func aCarvedCursorKeepsTheRecordOffsetsAndEndsWhereTheFieldEnds() throws {
        let record: [UInt8] = [9, 9, 3, 0xA1, 0xA2, 0xA3, 0x77]
        var c = ByteCursor(record, layer: .adStructure)
        try c.skip(2, "padding")
        let lengthOffset = c.readerIndex
        let n = Int(try c.readUInt8("length"))
        var field = try c.carveDeclared(n, declaredAt: lengthOffset, "field")
        let (fieldStart, fieldEnd, outerIndex) = (field.readerIndex, field.endIndex, c.readerIndex)
        #expect(fieldStart == 3)
        #expect(fieldEnd == 6)
        #expect(outerIndex == 6)
        #expect(try field.readUInt8("first") == 0xA1)
        do {
            _ = try field.readUInt32BE("too much")
            Issue.record("a carved cursor read past its field")
        } catch {
            #expect(error.offset == 4)
            #expect(error.code == .truncated)
        }
        #expect(try field.readUInt16BE("rest") == 0xA2A3)
        #expect(try c.readUInt8("after") == 0x77)
    }

    @Test func copiesOutAndRangesAreExactlyTheFieldsBytes() throws {
        let record: [UInt8] = Array(0...40)
        var c = ByteCursor(record, layer: .file)
        try c.skip(1, "x")
        #expect(try c.readShortBytes(10, "a") == ShortBytes(record[1..<11]))
        #expect(try c.readArray(3, "b") == [11, 12, 13])
        #expect(try c.readDeclaredRange(4, declaredAt: 0, "c") == 14..<18)
        #expect(c.peekUInt8() == 18)
        #expect(c.peekUInt8(ahead: 22) == 40)
        #expect(c.peekUInt8(ahead: 23) == nil)
        #expect(c.peekUInt8(ahead: -1) == nil)
        var copy = c
        #expect(copy.readRestArray() == Array(18...40))
        #expect(c.readRestRange() == 18..<41)
        let atEnd = c.isAtEnd
        #expect(atEnd)
    }

    @Test func aNegativeCountIsATruncationNotACrash() throws {
        let bytes: [UInt8] = [1, 2, 3]
        var c = ByteCursor(bytes, layer: .file)
        #expect(throws: DecodeError.self) { _ = try c.readArray(-1, "n") }
        #expect(throws: DecodeError.self) { try c.skip(-2, "n") }
        #expect(throws: DecodeError.self) { _ = try c.readDeclaredRange(-1, declaredAt: 0, "n") }
    }

    @Test func expectEndReportsTrailingBytes() throws {
        let bytes: [UInt8] = [1, 2, 3]
        var c = ByteCursor(bytes, layer: .file)
        _ = try c.readUInt8("a")
        do {
            try c.expectEnd("thing")
            Issue.record("no error")
        } catch {
            #expect(error.code == .trailingBytes)
            #expect(error.offset == 1)
        }
    }
}

@Suite struct HexTests {
    @Test func encodesLowerCase() {
        #expect(Hex.encode([0x00, 0xAB, 0x7F]) == "00ab7f")
    }

    @Test func decodesWithSeparatorsBetweenPairsOnly() {
        #expect(Hex.decode("04 3E:2a-00") == [0x04, 0x3E, 0x2A, 0x00])
        #expect(Hex.decode("0") == nil)
        #expect(Hex.decode("0 4") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("") == [])
    }
}
