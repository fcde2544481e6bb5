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
}
