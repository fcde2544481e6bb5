import NearbyBytes
import Testing

@Suite struct ByteCursorTests {
    @Test func readsNameTheirByteOrder() throws {
        var c = ByteCursor([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B], layer: .file)
        #expect(try c.readUInt16LE("a") == 0x0201)
        #expect(try c.readUInt16BE("b") == 0x0304)
        #expect(try c.readUInt24LE("c") == 0x070605)
        #expect(try c.readUInt32BE("d") == 0x08090A0B)
        #expect(c.isAtEnd)
    }

    @Test func addressesAreReadLeastSignificantByteFirst() throws {
        var c = ByteCursor([0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0], layer: .file)
        #expect(try c.readAddressLE("address") == 0xC0FFEE000001)
    }

    @Test func signedReadsKeepTheSign() throws {
        var c = ByteCursor([0xEE, 0xFE, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], layer: .file)
        #expect(try c.readInt8("tx") == -18)
        #expect(try c.readInt16BE("temp") == -384)
        #expect(try c.readInt64BE("t") == -2)
    }

    @Test func aFailedReadConsumesNothingAndNamesTheFieldOffset() throws {
        var c = ByteCursor([0xAA, 0xBB, 0xCC], layer: .hciEvent)
        _ = try c.readUInt8("first")
        #expect(throws: DecodeError(.hciEvent, .truncated, at: 1, "second: needs 4 bytes, 2 left")) {
            try c.readUInt32LE("second")
        }
        #expect(c.readerIndex == 1)
        #expect(try c.readUInt16BE("again") == 0xBBCC)
    }

    @Test func aDeclaredLengthThatOverrunsIsReportedAtTheLengthField() throws {
        var c = ByteCursor([0x05, 0x01, 0x02], layer: .adStructure)
        let lengthOffset = c.readerIndex
        let n = try c.readUInt8("length")
        do {
            _ = try c.readDeclared(Int(n), declaredAt: lengthOffset, "payload")
            Issue.record("expected an overrun")
        } catch {
            #expect(error.code == .lengthOverrun)
            #expect(error.offset == 0)
            #expect(error.layer == .adStructure)
        }
        #expect(c.readerIndex == 1)
    }

    @Test func offsetsOfASubSliceAreThoseOfTheRecord() throws {
        let record: [UInt8] = [0, 1, 2, 3, 4, 5]
        var c = ByteCursor(record[3...], layer: .file)
        #expect(c.readerIndex == 3)
        _ = try c.readUInt16LE("x")
        #expect(throws: DecodeError.self) { try c.readUInt16LE("y") }
        do { _ = try c.readUInt16LE("y") } catch { #expect(error.offset == 5) }
    }

    @Test func expectEndReportsTrailingBytes() throws {
        var c = ByteCursor([1, 2, 3], layer: .file)
        _ = try c.readUInt8("a")
        do { try c.expectEnd("thing"); Issue.record("no error") } catch {
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
