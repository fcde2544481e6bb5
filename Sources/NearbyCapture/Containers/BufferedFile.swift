import NearbySystem

/// A read-only file read through a buffer of its own: the streaming input under the native
/// readers (btsnoop, hex text). Memory use is the buffer, whatever the file size.
///
/// `peek` hands out bytes in place from a 256 KiB chunk refilled with `read(2)`, `read`
/// copies out of it, and `readLine` finds the end of a line with `memchr`.
final class BufferedFile {
    private let descriptor: FileDescriptor
    let size: Int64
    /// Bytes handed out so far (the file offset of the next byte `read` returns).
    @exclusivity(unchecked) private(set) var offset: Int64 = 0

    /// The chunk, its filled part `chunk[chunkStart..<chunkEnd]` not yet handed out. It holds
    /// `chunkSize` bytes from a refill, and up to `peekLimit` more so that `peek` can hand out
    /// a record and the header after it in one piece.
    private let chunk: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var chunkStart = 0
    @exclusivity(unchecked) private var chunkEnd = 0
    static let chunkSize = 1 << 18
    /// The most `peek` hands out at once (bytes): the longest record a reader accepts
    /// (256 KiB), its header and the next record's header, with room to spare.
    static let peekLimit = (1 << 18) + 4096

    init(path: String) throws(CaptureFileError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw CaptureFileError(path: path, code: .unreadable, reason: "cannot open: \(error)")
        }
        let info: FileInfo
        do {
            info = try FileInfo(descriptor: fd)
        } catch {
            try? fd.close()
            throw CaptureFileError(path: path, code: .unreadable, reason: "cannot stat: \(error)")
        }
        if info.kind == .directory {
            try? fd.close()
            throw CaptureFileError(path: path, code: .unreadable, reason: "is a directory")
        }
        descriptor = fd
        size = info.size
        // No larger than the file needs (`peek` never asks past the size at opening).
        chunk = .allocate(
            byteCount: Int(min(Int64(Self.chunkSize + Self.peekLimit), max(size, 0) + 4096)), alignment: 16)
    }

    deinit {
        chunk.deallocate()
        try? descriptor.close()
    }

    var remaining: Int64 { size - offset }

    /// Reads up to `count` bytes into `buffer[start...]`, growing it if needed; returns
    /// how many were read (fewer only at the end of the file, or when it cannot be read).
    func read(into buffer: inout [UInt8], at start: Int = 0, count: Int) -> Int {
        if buffer.count < start + count { buffer += [UInt8](repeating: 0, count: start + count - buffer.count) }
        return buffer.withUnsafeMutableBytes { raw in copy(into: raw.baseAddress! + start, count: count) }
    }

    /// Up to `count` bytes (at most `peekLimit`) from the offset of the next byte, in one
    /// piece, without handing them out: the next `peek` or `read` starts at the same
    /// byte. Fewer than `count` only at the end of the file, or when it cannot be read. The
    /// bytes stay valid until the next call on this file: a reader lends them as the record
    /// (`skip` then hands them out without a copy).
    func peek(_ count: Int) -> UnsafeRawBufferPointer {
        precondition(count <= Self.peekLimit, "peek of \(count) bytes exceeds the \(Self.peekLimit)-byte limit")
        if chunkEnd - chunkStart < count {
            let unread = chunkEnd - chunkStart
            if chunkStart > 0 {
                chunk.baseAddress!.copyMemory(from: chunk.baseAddress! + chunkStart, byteCount: unread)
                chunkStart = 0
                chunkEnd = unread
            }
            while chunkEnd < count {
                let n = readSome(chunk.baseAddress! + chunkEnd, chunk.count - chunkEnd)
                if n <= 0 { break }
                chunkEnd += n
            }
        }
        return UnsafeRawBufferPointer(start: chunk.baseAddress! + chunkStart, count: min(count, chunkEnd - chunkStart))
    }

    /// Hands out `count` bytes that the last `peek` returned, without copying them.
    func skip(_ count: Int) {
        precondition(count <= chunkEnd - chunkStart, "skip past the bytes peeked")
        chunkStart += count
        offset += Int64(count)
    }

    /// Goes on reading at `target`, a file offset at or past the current one (a reader
    /// resynchronising after damage).
    func seek(to target: Int64) {
        precondition(target >= offset, "seek backwards")
        if target - offset <= Int64(chunkEnd - chunkStart) {
            skip(Int(target - offset))
            return
        }
        chunkStart = 0
        chunkEnd = 0
        offset = target
        if (try? descriptor.seek(offset: target, from: .start)) == nil { offset = size }
    }

    /// Copies up to `count` bytes to `destination`; returns how many.
    private func copy(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        // The common case, a record inside the chunk: one copy and no loop.
        if count <= chunkEnd - chunkStart, count > 0 {
            destination.copyMemory(from: chunk.baseAddress! + chunkStart, byteCount: count)
            chunkStart += count
            offset += Int64(count)
            return count
        }
        var done = 0
        while done < count {
            if chunkStart == chunkEnd {
                // A request larger than the chunk goes straight to its destination.
                if count - done >= min(Self.chunkSize, chunk.count) {
                    let n = readSome(destination + done, count - done)
                    if n <= 0 { break }
                    done += n
                    offset += Int64(n)
                    continue
                }
                if !refill() { break }
            }
            let n = min(count - done, chunkEnd - chunkStart)
            (destination + done).copyMemory(from: chunk.baseAddress! + chunkStart, byteCount: n)
            chunkStart += n
            done += n
            offset += Int64(n)
        }
        return done
    }

    /// Reads one line (without its terminator, LF or CR LF) into `buffer`; false at the end
    /// of the file.
    func readLine(into buffer: inout [UInt8]) -> Bool {
        buffer.removeAll(keepingCapacity: true)
        var sawAny = false
        while true {
            if chunkStart == chunkEnd && !refill() { break }
            sawAny = true
            let base = chunk.baseAddress! + chunkStart
            let available = chunkEnd - chunkStart
            if let n = CMemory.firstIndex(of: 0x0A, in: UnsafeRawBufferPointer(start: base, count: available)) {
                buffer.append(contentsOf: UnsafeRawBufferPointer(start: base, count: n))
                chunkStart += n + 1
                offset += Int64(n + 1)
                break
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(start: base, count: available))
            chunkStart = chunkEnd
            offset += Int64(available)
        }
        if buffer.last == 0x0D { buffer.removeLast() }
        return sawAny
    }

    /// Refills the (empty) chunk; false at the end of the file or on a read error.
    private func refill() -> Bool {
        chunkStart = 0
        chunkEnd = max(0, readSome(chunk.baseAddress!, min(Self.chunkSize, chunk.count)))
        return chunkEnd > 0
    }

    /// `read(2)` of up to `count` bytes, retried when interrupted; 0 at the end, −1 on error.
    private func readSome(_ destination: UnsafeMutableRawPointer, _ count: Int) -> Int {
        (try? descriptor.read(into: UnsafeMutableRawBufferPointer(start: destination, count: count))) ?? -1
    }
}
