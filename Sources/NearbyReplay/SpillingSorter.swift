import NearbyCapture

/// A value that `SpillingSorter` orders: by `sortKey`, ascending; values with equal keys stay
/// in the order they were appended. Bitwise-copyable, so that a run is written to a file and
/// read back as the bytes it has in memory.
protocol SpillSortable: BitwiseCopyable {
    var sortKey: Int64 { get }
}

/// Sorts a stream of values of any length in bounded memory: a stable external merge sort.
///
/// Up to `runCapacity` values are held in memory. When that many have been appended and more
/// come, they are sorted and written to an anonymous temporary file (`SpillFile`) as a run,
/// and the buffer is reused. `finish()` sorts what is left in memory and returns a reader
/// that merges the runs. Memory is the buffer plus a read buffer per run (together at most
/// `runCapacity` values when there are many runs, but never less than 256 values a run),
/// whatever the number of values; the file holds `MemoryLayout<Element>.stride` bytes a
/// spilled value.
///
/// A stream that is already in order (a capture read in record order whose clock never steps
/// back, the usual case) is neither sorted nor merged: the runs are read back one after the
/// other. Values that fit in one buffer never touch a file.
struct SpillingSorter<Element: SpillSortable> {
    let runCapacity: Int
    /// Where the file is made; nil for `$TMPDIR`, else `/tmp`.
    let spillFolder: String?
    private var buffer: [Element] = []
    private var file: SpillFile?
    /// The spilled runs: their first value's index in the file and their length, in values.
    private var runs: [(start: Int, count: Int)] = []
    /// True while every value appended has a key at least that of the one before.
    private var inOrder = true
    private var lastKey = Int64.min
    /// Values appended so far.
    private(set) var count = 0

    init(runCapacity: Int, spillFolder: String? = nil) {
        precondition(runCapacity > 0, "a run holds at least one value")
        self.runCapacity = runCapacity
        self.spillFolder = spillFolder
    }

    /// Values written to the file so far (the rest are in memory).
    var spilled: Int { runs.reduce(0) { $0 + $1.count } }

    mutating func append(_ value: Element) throws(SpillError) {
        if buffer.count == runCapacity { try spill() }
        let key = value.sortKey
        if key < lastKey { inOrder = false }
        lastKey = key
        buffer.append(value)
        count += 1
    }

    /// Sorts the buffer and writes it to the file as a run.
    @inline(never)
    private mutating func spill() throws(SpillError) {
        if file == nil {
            file = try SpillFile(folder: spillFolder, purpose: "the sightings that do not fit in memory")
            buffer.reserveCapacity(runCapacity)
        }
        if !inOrder { buffer.sort { $0.sortKey < $1.sortKey } }
        let file = file!
        let start = file.size / MemoryLayout<Element>.stride
        var failure: SpillError?
        buffer.withUnsafeBytes { bytes in
            do throws(SpillError) { try file.append(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
        runs.append((start, buffer.count))
        buffer.removeAll(keepingCapacity: true)
    }

    /// The values in order. The sorter is used up.
    consuming func finish() throws(SpillError) -> Merge {
        if !inOrder { buffer.sort { $0.sortKey < $1.sortKey } }
        return try Merge(
            file: file, runs: runs, last: buffer, concatenate: inOrder,
            readCapacity: runs.isEmpty ? 0 : max(256, min(4096, runCapacity / runs.count)))
    }

    /// Reads the sorted values back, merging the runs: by key, and at equal keys from the
    /// earlier run first (the runs were written in append order, the in-memory one last).
    struct Merge {
        /// One run being read: a window of it in memory, and where the rest lies in the file.
        private struct Source {
            var window: [Element] = []
            var position = 0
            /// The next value to read from the file, and how many are left there.
            var fileIndex: Int
            var fileRemaining: Int
        }

        /// Values ready to be returned, `front[frontPosition...]`: in turn each run's window
        /// when `concatenate` (so that `next` is an index and a load), else empty.
        private var front: [Element] = []
        private var frontPosition = 0
        private let file: SpillFile?
        private var sources: [Source]
        /// Indices into `sources` of those not used up, as a binary min-heap by (head key,
        /// index); unused when `concatenate`.
        private var heap: [Int] = []
        /// The runs are in order one after the other: read them in turn.
        private let concatenate: Bool
        /// The source being read when `concatenate`.
        private var current = 0
        private let readCapacity: Int

        fileprivate init(
            file: SpillFile?, runs: [(start: Int, count: Int)], last: [Element], concatenate: Bool,
            readCapacity: Int
        ) throws(SpillError) {
            self.file = file
            self.concatenate = concatenate
            self.readCapacity = readCapacity
            sources = runs.map { Source(fileIndex: $0.start, fileRemaining: $0.count) }
            sources.append(Source(window: last, fileIndex: 0, fileRemaining: 0))
            if !concatenate {
                for i in sources.indices {
                    if try fill(i) { push(i) }
                }
            }
        }

        /// The next value, nil after the last.
        @inline(__always)
        mutating func next() throws(SpillError) -> Element? {
            if frontPosition < front.count {
                defer { frontPosition &+= 1 }
                return front[frontPosition]
            }
            return try nextSlow()
        }

        @inline(never)
        private mutating func nextSlow() throws(SpillError) -> Element? {
            if concatenate {
                while current < sources.count {
                    if try fill(current) {
                        // The source's window becomes the front, where `next` reads it.
                        front = sources[current].window
                        frontPosition = sources[current].position + 1
                        sources[current].window = []
                        sources[current].position = 0
                        return front[frontPosition - 1]
                    }
                    current += 1
                }
                return nil
            }
            guard let top = heap.first else { return nil }
            let v = sources[top].window[sources[top].position]
            sources[top].position += 1
            if try fill(top) { siftDown(0) } else { removeTop() }
            return v
        }

        /// Makes sure source `i` has a value in its window; false when it is used up.
        private mutating func fill(_ i: Int) throws(SpillError) -> Bool {
            if sources[i].position < sources[i].window.count { return true }
            let n = min(readCapacity, sources[i].fileRemaining)
            guard n > 0, let file else { return false }
            let offset = sources[i].fileIndex * MemoryLayout<Element>.stride
            var failure: SpillError?
            // A new window for each read (one allocation per `readCapacity` values): the
            // file's bytes go straight into its uninitialized storage.
            sources[i].window = Array(unsafeUninitializedCapacity: n) { storage, initialized in
                do throws(SpillError) {
                    try file.read(into: UnsafeMutableRawBufferPointer(storage), at: offset)
                    initialized = n
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            sources[i].position = 0
            sources[i].fileIndex += n
            sources[i].fileRemaining -= n
            return true
        }

        private func less(_ a: Int, _ b: Int) -> Bool {
            let ka = sources[a].window[sources[a].position].sortKey, kb = sources[b].window[sources[b].position].sortKey
            return ka < kb || (ka == kb && a < b)
        }

        private mutating func push(_ i: Int) {
            heap.append(i)
            var c = heap.count - 1
            while c > 0 {
                let p = (c - 1) / 2
                guard less(heap[c], heap[p]) else { break }
                heap.swapAt(c, p)
                c = p
            }
        }

        private mutating func removeTop() {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }

        private mutating func siftDown(_ start: Int) {
            var p = start
            while true {
                let l = 2 * p + 1, r = l + 1
                var m = p
                if l < heap.count, less(heap[l], heap[m]) { m = l }
                if r < heap.count, less(heap[r], heap[m]) { m = r }
                if m == p { return }
                heap.swapAt(p, m)
                p = m
            }
        }
    }
}
