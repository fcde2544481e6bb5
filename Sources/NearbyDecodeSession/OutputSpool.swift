import Dispatch
import NearbyCapture
import NearbyDecode

/// The output and diagnostics of one file of a `decode --jobs` run, from the worker that
/// decodes the file to the thread that writes the run's output, in order.
///
/// Until that thread reaches the file (`drain`), the spool holds what the worker writes: up
/// to `memoryLimit` bytes in memory, the rest in an anonymous temporary file (`SpillFile`).
/// From then on it passes the output through, holding at most about `memoryLimit` bytes: a
/// worker ahead of the writer waits for it. Diagnostics keep their place among the output.
final class OutputSpool: @unchecked Sendable {
    /// Bytes of output held in memory.
    let memoryLimit: Int

    private enum Entry {
        case bytes([UInt8])
        /// Bytes in the temporary file.
        case spilled(offset: Int, count: Int)
        case diagnostic(String)
    }

    // Every member below is read and written with `lock` held.
    private let lock = DispatchSemaphore(value: 1)
    private var entries: [Entry] = []
    private var inMemory = 0
    private var file: SpillFile?
    private var spillFailed = false
    /// The writer has reached this file: output passes through.
    private var draining = false
    private var finished = false
    private var writerWaiting = false
    private var workerWaiting = false
    /// Signalled when an entry is added or the worker finishes, while the writer waits.
    private let added = DispatchSemaphore(value: 0)
    /// Signalled when the writer has taken the entries, while the worker waits.
    private let taken = DispatchSemaphore(value: 0)

    init(memoryLimit: Int = 1 << 20) { self.memoryLimit = memoryLimit }

    /// Appends output bytes (the worker).
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        lock.wait()
        while draining && inMemory >= memoryLimit {
            workerWaiting = true
            lock.signal()
            taken.wait()
            lock.wait()
        }
        if !draining && file == nil && !spillFailed && inMemory + bytes.count > memoryLimit { spillEntries() }
        if !draining, let spill = file, !spillFailed {
            do {
                let offset = spill.size
                try spill.append(UnsafeRawBufferPointer(bytes))
                entries.append(.spilled(offset: offset, count: bytes.count))
            } catch {
                spillFailed = true
                entries.append(.diagnostic("warning: \(error); keeping the rest of the output in memory"))
                entries.append(.bytes(Array(bytes)))
                inMemory += bytes.count
            }
        } else {
            entries.append(.bytes(Array(bytes)))
            inMemory += bytes.count
        }
        wakeWriter()
        lock.signal()
    }

    /// Appends a diagnostic line after the output written so far (the worker).
    func say(_ text: String) {
        lock.wait()
        entries.append(.diagnostic(text))
        wakeWriter()
        lock.signal()
    }

    /// Says that the worker has written everything.
    func finish() {
        lock.wait()
        finished = true
        wakeWriter()
        lock.signal()
    }

    /// Hands the output on to `write` and the diagnostics to `diagnostics`, in order, as
    /// they come, until the worker has finished (the writer).
    func drain(write: (UnsafeBufferPointer<UInt8>) -> Void, diagnostics: (String) -> Void) {
        lock.wait()
        draining = true
        while true {
            if !entries.isEmpty {
                let batch = entries
                entries.removeAll(keepingCapacity: true)
                inMemory = 0
                if workerWaiting {
                    workerWaiting = false
                    taken.signal()
                }
                let spill = file
                lock.signal()
                for entry in batch { hand(entry, from: spill, write: write, diagnostics: diagnostics) }
                lock.wait()
            } else if finished {
                break
            } else {
                writerWaiting = true
                lock.signal()
                added.wait()
                lock.wait()
            }
        }
        file = nil
        lock.signal()
    }

    private func hand(
        _ entry: Entry, from spill: SpillFile?, write: (UnsafeBufferPointer<UInt8>) -> Void,
        diagnostics: (String) -> Void
    ) {
        switch entry {
        case .bytes(let bytes):
            bytes.withUnsafeBufferPointer(write)
        case .diagnostic(let text):
            diagnostics(text)
        case .spilled(let offset, let count):
            // Only the worker appends to the file, and only before the writer drains.
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
            defer { buffer.deallocate() }
            do {
                try spill!.read(into: buffer, at: offset)
                write(UnsafeBufferPointer(buffer.bindMemory(to: UInt8.self)))
            } catch {
                diagnostics("error: \(error); \(count) bytes of output lost")
            }
        }
    }

    /// Moves the bytes held in memory to a new temporary file, in place.
    private func spillEntries() {
        let spill: SpillFile
        do {
            spill = try SpillFile(purpose: "the output of files decoded ahead of their turn (--jobs)")
        } catch {
            spillFailed = true
            entries.append(.diagnostic("warning: \(error); keeping the output in memory"))
            return
        }
        file = spill
        for (i, entry) in entries.enumerated() {
            guard case .bytes(let bytes) = entry else { continue }
            let offset = spill.size
            do {
                try bytes.withUnsafeBytes { try spill.append($0) }
            } catch {
                spillFailed = true
                entries.append(.diagnostic("warning: \(error); keeping the output in memory"))
                return
            }
            entries[i] = .spilled(offset: offset, count: bytes.count)
            inMemory -= bytes.count
        }
    }

    private func wakeWriter() {
        if writerWaiting {
            writerWaiting = false
            added.signal()
        }
    }
}
