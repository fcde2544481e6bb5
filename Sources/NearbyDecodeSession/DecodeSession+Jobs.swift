import Dispatch
import NearbyDecode
import Synchronization

extension DecodeSession {
    /// Decodes `files` on `jobs` threads, taking them in order, and hands each file's output
    /// and diagnostics on in that order: the file whose turn it is as it is decoded, the
    /// others once the files before them are written; adds each file's result to `report` in
    /// order. Output goes through an `OutputSpool` per file; at most twice `jobs` files are
    /// decoded or waiting at once, so memory stays bounded whatever the files' sizes.
    func decodeAhead(
        _ files: [(String, Bool)], chunkSize: Int, report: inout RunReport,
        write: (UnsafeBufferPointer<UInt8>) -> Void, diagnostics: (String) -> Void
    ) {
        let work = files.map { FileJob(path: $0.0, named: $0.1) }
        let next = Mutex(0)
        let window = DispatchSemaphore(value: 2 * jobs)
        // Safe to share: the run has no `secureFrames` (the one member with state), and the
        // other members are values read, never written, while the workers run.
        nonisolated(unsafe) let session = self
        let group = DispatchGroup()
        for _ in 0..<min(jobs, files.count) {
            DispatchQueue.global().async(group: group) {
                while true {
                    window.wait()
                    let i = next.withLock { i in
                        defer { i += 1 }
                        return i
                    }
                    guard i < work.count else {
                        window.signal()
                        return
                    }
                    let job = work[i]
                    job.result = session.decodeFile(
                        path: job.path, named: job.named, chunkSize: chunkSize, write: job.spool.write,
                        diagnostics: job.spool.say)
                    job.spool.finish()
                }
            }
        }
        for job in work {
            job.spool.drain(write: write, diagnostics: diagnostics)
            if let result = job.result { report.add(result, path: job.path) }
            window.signal()
        }
        group.wait()
    }

    /// One file of a run with several jobs. `result` is set by the worker that decodes the
    /// file before it finishes the spool, and read by the writer after the spool is drained.
    final class FileJob: @unchecked Sendable {
        let path: String
        let named: Bool
        let spool = OutputSpool()
        var result: FileResult?

        init(path: String, named: Bool) {
            self.path = path
            self.named = named
        }
    }
}
