import NearbyBytes
import Testing

@Suite struct InlineBytesTests {
    @Test(arguments: [0, 1, 31, 32, 33, 255, 1650])
    func holdsExactlyTheBytesItWasGivenInlineOrNot(count: Int) {
        let source = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let bytes = InlineBytes(source, startIndex: 100)
        #expect(bytes.count == count)
        #expect(bytes.startIndex == 100)
        #expect(bytes.endIndex == 100 + count)
        #expect(Array(bytes) == source)
        if count > 0 {
            #expect(bytes[100] == source[0])
            #expect(bytes[100 + count - 1] == source[count - 1])
        }
        bytes.withUnsafeBytes { #expect(Array($0) == source) }
        #expect(bytes.withContiguousStorageIfAvailable { Array($0) } == source)
    }

    /// `store` is assignment: whatever the old value held (nothing, inline bytes or heap
    /// storage), the new one (likewise) is what is left, with its own indices, and a copy
    /// taken of the old value before keeps its bytes.
    @Test func storeLeavesTheNewValueWhateverTheOldOneHeld() {
        let values: [InlineBytes?] = [
            nil, InlineBytes([1, 2, 3], startIndex: 7), InlineBytes((0..<40).map { UInt8($0) }, startIndex: 9),
        ]
        for old in values {
            for new in values {
                var target = old
                let kept = target
                target.store(new)
                #expect(target == new)
                #expect(target?.startIndex == new?.startIndex)
                #expect(target.map { Array($0) } == new.map { Array($0) })
                #expect(kept.map { Array($0) } == old.map { Array($0) })
            }
        }
    }

    @Test func holdsEveryInlineLengthAtEveryAlignmentReadingOnlyItsOwnBytes() {
        // The bytes sit at the end of a buffer whose next byte differs from every source byte:
        // a copy that read past them, or kept a byte of the wrong position, would differ.
        for count in 0...InlineBytes.inlineCapacity {
            for alignment in 0..<8 {
                let source = (0..<count).map { UInt8(truncatingIfNeeded: 0x41 &+ $0 &* 7 &+ alignment) }
                let buffer = [UInt8](repeating: 0xEE, count: alignment) + source + [0xFF]
                let bytes = buffer.withUnsafeBytes { raw in
                    InlineBytes(copying: UnsafeRawBufferPointer(rebasing: raw[alignment..<alignment + count]))
                }
                #expect(Array(bytes) == source, "count \(count), alignment \(alignment)")
            }
        }
    }

    @Test func equalityAndHashingFollowTheBytesNotTheIndices() {
        let a = InlineBytes([1, 2, 3], startIndex: 0)
        let b = InlineBytes([1, 2, 3], startIndex: 9)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != InlineBytes([1, 2, 4]))
        #expect(a != InlineBytes([1, 2]))
        let long = Array(repeating: UInt8(7), count: 40)
        #expect(InlineBytes(long) == InlineBytes(long[...], startIndex: 3))
        #expect(InlineBytes(long) != InlineBytes(Array(long.dropLast()) + [8]))
        #expect(([] as InlineBytes).isEmpty)
        #expect(InlineBytes([0xAB]).description == "[171]")
    }

    @Test func aCursorReadsItWithTheRecordOffsets() {
        let record: [UInt8] = [0xFF, 0xFF, 3, 0xA1, 0xA2, 0xA3, 0x05, 0x06]
        var c = ByteCursor(record, layer: .file)
        do {
            try c.skip(2, "padding")
            let lengthOffset = c.readerIndex
            let n = Int(try c.readUInt8("length"))
            let field = try c.readDeclaredInlineBytes(n, declaredAt: lengthOffset, "field")
            #expect(Array(field) == [0xA1, 0xA2, 0xA3])
            #expect(field.startIndex == 3)
            let rest = c.readRestInlineBytes()
            #expect(Array(rest) == [0x05, 0x06])
            #expect(rest.startIndex == 6)
            let atEnd = c.isAtEnd
            #expect(atEnd)
            let (second, failureOffset) = field.withCursor(layer: .adStructure) { inner -> (UInt8?, Int?) in
                _ = try? inner.readUInt8("a")
                let b = try? inner.readUInt8("b")
                do throws(DecodeError) {
                    _ = try inner.readUInt16LE("c")
                    return (b, nil)
                } catch { return (b, error.offset) }
            }
            #expect(second == 0xA2)
            #expect(failureOffset == 5)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aDeclaredLengthPastTheEndIsAnOverrunAndReadsNothing() {
        let record: [UInt8] = [4, 1, 2]
        var c = ByteCursor(record, layer: .adStructure)
        do {
            _ = try c.readDeclaredInlineBytes(4, declaredAt: 0, "data")
            Issue.record("expected an overrun")
        } catch {
            #expect(error.code == .lengthOverrun)
            #expect(error.offset == 0)
        }
        let index = c.readerIndex
        #expect(index == 0)
    }

    /// Reading a declared field in place is `store` of what `readDeclaredInlineBytes` returns:
    /// from any old value (nothing, inline, heap) to any new length (inline or not), with the
    /// field's record offsets, and a copy of the old value keeps its bytes.
    @Test(arguments: [0, 5, 32, 33, 200])
    func readingInPlaceStoresWhatReadingReturns(count: Int) {
        let record = [UInt8(count)] + (0..<count).map { UInt8(truncatingIfNeeded: 0x30 &+ $0) } + [0x7F]
        let olds: [InlineBytes?] = [
            nil, InlineBytes([9, 9], startIndex: 50), InlineBytes(Array(repeating: 8, count: 40), startIndex: 60),
        ]
        for old in olds {
            var destination = old
            let kept = destination
            var c = ByteCursor(record, layer: .advertisingReport)
            var returning = ByteCursor(record, layer: .advertisingReport)
            do {
                let n = Int(try c.readUInt8("length"))
                try c.readDeclaredInlineBytes(n, declaredAt: 0, "data", into: &destination)
                _ = try returning.readUInt8("length")
                let expected = try returning.readDeclaredInlineBytes(n, declaredAt: 0, "data")
                #expect(destination.map { Array($0) } == Array(record[1..<1 + count]))
                #expect(destination == expected)
                #expect(destination?.startIndex == 1)
                #expect(try c.readUInt8("after") == 0x7F)
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(kept.map { Array($0) } == old.map { Array($0) })
        }
    }

    @Test func aDeclaredLengthPastTheEndLeavesTheDestinationAsItWas() {
        let record: [UInt8] = [4, 1, 2]
        for old in [nil, InlineBytes([7], startIndex: 3), InlineBytes(Array(repeating: 6, count: 40))] {
            var destination = old
            var c = ByteCursor(record, layer: .adStructure)
            do {
                try c.readDeclaredInlineBytes(4, declaredAt: 0, "data", into: &destination)
                Issue.record("expected an overrun")
            } catch {
                #expect(error.code == .lengthOverrun)
                #expect(error.offset == 0)
            }
            #expect(destination == old)
            #expect(destination?.startIndex == old?.startIndex)
            #expect(c.readerIndex == 0)
        }
    }

    /// The in-place cursor reads what `withCursor` reads, inline or on the heap, with the
    /// same record offsets, and leaves the bytes as they were.
    @Test(arguments: [0, 3, 32, 33, 90])
    func aCursorInPlaceReadsWhatACopyReads(count: Int) {
        let source = (0..<count).map { UInt8(truncatingIfNeeded: 0xC0 &+ $0) }
        var bytes = InlineBytes(source, startIndex: 12)
        func walk(_ c: inout ByteCursor) -> [Int] {
            var seen: [Int] = []
            while let byte = try? c.readUInt8("byte") { seen.append(c.readerIndex * 256 + Int(byte)) }
            return seen
        }
        let copied = bytes.withCursor(layer: .adStructure) { walk(&$0) }
        let inPlace = bytes.withCursorInPlace(layer: .adStructure) { walk(&$0) }
        #expect(inPlace == copied)
        #expect(inPlace.count == count)
        #expect(inPlace.first.map { $0 >> 8 } == (count > 0 ? 13 : nil))
        #expect(Array(bytes) == source)
    }
}
