import NearbyCapture
import Testing

@testable import NearbyReplay

/// `SpillingSorter`, the replay's bounded-memory sort, against a model: the values sorted by
/// (key, append index), which is what a stable sort by key must give.
@Suite struct SpillingSorterTests {
    struct Value: SpillSortable, Equatable, CustomStringConvertible {
        var key: Int64
        var index: Int32
        var sortKey: Int64 { key }
        var description: String { "\(key)#\(index)" }
    }

    /// A deterministic stream: keys from a small range (many ties) or rising with an
    /// occasional step back, as a capture's clock might.
    static func stream(_ n: Int, seed: UInt64, shape: Int) -> [Value] {
        var state = seed | 1
        func random() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var key: Int64 = 0
        return (0..<n).map { i in
            switch shape {
            case 0: key = Int64(random() % 5)  // ties everywhere
            case 1: key += Int64(random() % 3)  // in order, with ties
            default: key += random() % 10 == 0 ? -Int64(random() % 50) : Int64(random() % 4)  // steps back
            }
            return Value(key: key, index: Int32(i))
        }
    }

    static func model(_ values: [Value]) -> [Value] {
        values.sorted { ($0.key, $0.index) < ($1.key, $1.index) }
    }

    static func drain(_ values: [Value], capacity: Int) throws -> (out: [Value], spilled: Int) {
        var sorter = SpillingSorter<Value>(runCapacity: capacity)
        for v in values { try sorter.append(v) }
        #expect(sorter.count == values.count)
        let spilled = sorter.spilled
        var merge = try sorter.finish()
        var out: [Value] = []
        while let v = try merge.next() { out.append(v) }
        #expect(try merge.next() == nil, "the merge stays finished")
        return (out, spilled)
    }

    @Test(arguments: [0, 1, 2])
    func anyStreamComesOutAsTheStableSortWhateverTheRunCapacity(shape: Int) throws {
        for n in [0, 1, 7, 8, 9, 100, 1_000] {
            for capacity in [1, 3, 8, 64, 5_000] {
                let values = Self.stream(n, seed: UInt64(n * 31 + capacity), shape: shape)
                let (out, spilled) = try Self.drain(values, capacity: capacity)
                #expect(out == Self.model(values), "n \(n), capacity \(capacity), shape \(shape)")
                // Everything beyond the last run's worth went to the file.
                let expectedSpill = n <= capacity ? 0 : (n - 1) / capacity * capacity
                #expect(spilled == expectedSpill, "n \(n), capacity \(capacity)")
            }
        }
    }

    /// Many runs: each gets a read window smaller than its length (256 values), so windows
    /// are refilled from the file while the heap merges.
    @Test func manyLongRunsAreMergedThroughRefilledWindows() throws {
        let values = Self.stream(40_000, seed: 7, shape: 2)
        let (out, spilled) = try Self.drain(values, capacity: 1_000)
        #expect(spilled == 39_000)
        #expect(out == Self.model(values))
    }

    @Test func aFolderThatCannotHoldTheFileIsNamedInTheError() throws {
        var sorter = SpillingSorter<Value>(runCapacity: 2, spillFolder: "/nonexistent-nearby-folder")
        try sorter.append(Value(key: 1, index: 0))
        try sorter.append(Value(key: 2, index: 1))
        let error = try #require(throws: SpillError.self) { try sorter.append(Value(key: 3, index: 2)) }
        #expect(error.description.hasPrefix("cannot create a temporary file in /nonexistent-nearby-folder"), "\(error)")
        #expect(error.description.contains("No such file or directory"), "\(error)")
    }
}
