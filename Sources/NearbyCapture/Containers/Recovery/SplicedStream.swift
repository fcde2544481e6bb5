#if canImport(Glibc)
import CPcap
import Glibc

/// A read-only C stream of `prefix` followed by a file's bytes from `offset` on: how a
/// libpcap reader goes on past damage (libpcap reads a file header, then records, from any
/// stream; the prefix is the file's own header).
final class SplicedStream {
    private let prefix: [UInt8]
    private let descriptor: Int32
    private let offset: Int64
    /// Position in the spliced stream (bytes).
    private var position: Int64 = 0

    private init(prefix: [UInt8], descriptor: Int32, offset: Int64) {
        self.prefix = prefix
        self.descriptor = descriptor
        self.offset = offset
    }

    deinit { close(descriptor) }

    /// Opens the stream, or nil when the file cannot be opened. Closing the stream
    /// (`fclose`, or `pcap_close` once libpcap owns it) frees everything.
    static func open(path: String, prefix: [UInt8], from offset: Int64) -> UnsafeMutablePointer<FILE>? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let source = SplicedStream(prefix: prefix, descriptor: fd, offset: offset)
        var functions = nearby_cookie_io_functions()
        functions.read = { cookie, buffer, count in
            Unmanaged<SplicedStream>.fromOpaque(cookie!).takeUnretainedValue().read(into: buffer!, count: count)
        }
        functions.seek = { cookie, target, whence in
            Unmanaged<SplicedStream>.fromOpaque(cookie!).takeUnretainedValue().seek(target!, whence: whence)
        }
        functions.close = { cookie in
            Unmanaged<SplicedStream>.fromOpaque(cookie!).release()
            return 0
        }
        let cookie = Unmanaged.passRetained(source).toOpaque()
        guard let stream = nearby_fopencookie(cookie, "rb", functions) else {
            Unmanaged<SplicedStream>.fromOpaque(cookie).release()
            return nil
        }
        return stream
    }

    private func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        var done = 0
        while done < count && position < Int64(prefix.count) {
            buffer[done] = CChar(bitPattern: prefix[Int(position)])
            done += 1
            position += 1
        }
        while done < count {
            let at = offset + position - Int64(prefix.count)
            let n = pread(descriptor, buffer + done, count - done, off_t(at))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return done > 0 ? done : -1 }
            if n == 0 { break }
            done += n
            position += Int64(n)
        }
        return done
    }

    private func seek(_ target: UnsafeMutablePointer<Int64>, whence: Int32) -> Int32 {
        var next: Int64
        switch whence {
        case SEEK_SET: next = Int64(target.pointee)
        case SEEK_CUR: next = position + Int64(target.pointee)
        default: return -1
        }
        guard next >= 0 else { return -1 }
        position = next
        target.pointee = next
        return 0
    }
}
#endif
