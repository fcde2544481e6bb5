import NearbyBytes
import Testing

@Suite struct ShortBytesTests {
    @Test func holdsTheBytesItWasGivenInOrder() {
        let source: [UInt8] = (1...24).map { UInt8($0 * 7 & 0xFF) }
        for length in 0...ShortBytes.capacity {
            let bytes = ShortBytes(source[0..<length])
            #expect(bytes.count == length)
            #expect(Array(bytes) == Array(source[0..<length]))
        }
    }

    @Test func contiguousStorageHoldsExactlyTheBytes() {
        let source: [UInt8] = (1...24).map { UInt8($0 * 11 & 0xFF) }
        for length in 0...ShortBytes.capacity {
            let bytes = ShortBytes(source[0..<length])
            let seen = bytes.withContiguousStorageIfAvailable { Array($0) }
            #expect(seen == Array(source[0..<length]))
        }
    }

    @Test func equalBytesAreEqualHowEverTheyWereMade() {
        let record: [UInt8] = [0xAA, 0x01, 0x02, 0x03, 0xBB]
        let fromSlice = ShortBytes(record[1..<4])
        let fromLiteral: ShortBytes = [0x01, 0x02, 0x03]
        #expect(fromSlice == fromLiteral)
        #expect(Set([fromSlice, fromLiteral]).count == 1)
    }

    @Test func lengthCountsEvenWhenTheBytesAreZero() {
        let two: ShortBytes = [0, 0]
        let three: ShortBytes = [0, 0, 0]
        #expect(two != three)
        #expect(two != ShortBytes())
        #expect(Set([two, three, ShortBytes()]).count == 3)
    }

    @Test func aByteInEveryWordMatters() {
        let zero = ShortBytes([UInt8](repeating: 0, count: 24))
        for i in 0..<24 {
            var changed = [UInt8](repeating: 0, count: 24)
            changed[i] = 1
            #expect(ShortBytes(changed) != zero, "byte \(i)")
            #expect(ShortBytes(changed)[i] == 1)
        }
    }

    @Test func readsAsTheArrayOfItsBytes() {
        let bytes: ShortBytes = [0x02, 0x15]
        #expect(bytes.description == "[2, 21]")
        #expect(Hex.encode(bytes) == "0215")
    }

    /// `ByteCursor.readShortBytes` loads a word at a time: at every length and at every
    /// offset, including fields that end on the record's last byte, it holds exactly the
    /// field's bytes (compared with the slice, read through the array initialiser).
    @Test func readingLoadsExactlyTheFieldAtEveryLengthAndOffset() throws {
        let record: [UInt8] = (0..<40).map { UInt8(0x80 | $0) }
        for length in 0...ShortBytes.capacity {
            for start in 0...(record.count - length) {
                var c = ByteCursor(record, layer: .file)
                try c.skip(start, "before")
                let bytes = try c.readShortBytes(length, "field")
                #expect(bytes == ShortBytes(record[start..<start + length]), "length \(length) at \(start)")
                #expect(Array(bytes) == Array(record[start..<start + length]))
                #expect(c.readerIndex == start + length)
            }
        }
    }

    @Test func appendingHoldsBothInOrderAtEveryLength() {
        let a: [UInt8] = (1...24).map { UInt8($0) }
        let b: [UInt8] = (1...24).map { UInt8(0xF0 ^ $0) }
        for n in 0...ShortBytes.capacity {
            for m in 0...(ShortBytes.capacity - n) {
                let joined = ShortBytes(a[0..<n]).appending(ShortBytes(b[0..<m]))
                #expect(Array(joined) == Array(a[0..<n]) + Array(b[0..<m]), "\(n) + \(m)")
                // Equal to the same bytes made at once: the bytes past the length stay 0.
                #expect(joined == ShortBytes(Array(a[0..<n]) + Array(b[0..<m])), "\(n) + \(m)")
            }
        }
    }

    @Test func bigEndianPutsTheTopByteFirst() {
        #expect(Array(ShortBytes(bigEndian: UInt32(0x0102_0304))) == [1, 2, 3, 4])
        #expect(Array(ShortBytes(bigEndian: UInt16(0xBEEF))) == [0xBE, 0xEF])
        #expect(
            Array(ShortBytes(bigEndian: UInt64(0x1122_3344_5566_7788))) == [
                0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
            ])
        #expect(ShortBytes(bigEndian: UInt32(0)) == [0, 0, 0, 0])
    }
}
