import CPcap
import NearbyBytes
import NearbySystem

/// A pcap or pcapng file opened by libpcap (`pcap_fopen_offline_with_tstamp_precision`, with
/// microsecond timestamps whatever the file's precision) on a stream whose buffer the reader
/// sets (`streamBufferSize`), with the file's bytes from where libpcap reads next in
/// `window`. The only caller of `pcap_next_ex`.
final class LibpcapFile {
    /// What `next()` read.
    enum Read {
        /// A record: libpcap's header and its bytes, in libpcap's buffer until `next()`.
        case packet(pcap_pkthdr, UnsafeRawBufferPointer)
        /// The end of the file (`PCAP_ERROR_BREAK`).
        case end
        /// libpcap refused the next record (PCAP-9, PCAP-11, PCAPNG-9, PCAPNG-12): its message.
        case refused(String)
    }

    private let handle: OpaquePointer
    private let stream: StdioStream.Pointer
    /// The stream's buffer, freed once libpcap has closed the stream.
    private let streamBuffer: UnsafeMutablePointer<CChar>
    /// The bytes from where libpcap reads next; what the reader takes from it, libpcap skips.
    let window: StreamWindow
    let linkType: LinkType
    /// The file's snapshot length: a record this long may have been cut by libpcap, which
    /// then skips the rest of its bytes in the file (PCAP-6).
    let snapshotLength: Int

    /// The stream's buffer (bytes).
    static let streamBufferSize = 1 << 18

    init(path: String) throws(CaptureFileError) {
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.streamBufferSize)
        let stream: StdioStream.Pointer
        do {
            stream = try StdioStream.open(path, buffer: buffer, size: Self.streamBufferSize)
        } catch {
            buffer.deallocate()
            throw CaptureFileError(path: path, code: .unreadable, reason: "cannot open: \(error)")
        }
        guard let h = pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errbuf)
        else {
            StdioStream.close(stream)  // libpcap closes the stream only once it has taken it
            buffer.deallocate()
            throw CaptureFileError(
                path: path, code: .badHeader,
                reason: "libpcap: "
                    + String(decoding: errbuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        (handle, self.stream, streamBuffer) = (h, stream, buffer)
        window = StreamWindow(stream)
        linkType = LinkType(rawValue: UInt32(bitPattern: pcap_datalink(h)))
        snapshotLength = Int(pcap_snapshot(h))
    }

    deinit {
        pcap_close(handle)  // closes the stream, which used `streamBuffer` until then
        streamBuffer.deallocate()
    }

    /// Reads the next record.
    func next() -> Read {
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        window.release()
        switch pcap_next_ex(handle, &header, &data) {
        case 1:
            let h = header!.pointee
            return .packet(h, UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : Int(h.caplen)))
        case PCAP_ERROR_BREAK: return .end
        default: return .refused(String(cString: pcap_geterr(handle)))
        }
    }

    /// The fault code for what libpcap's refusal `message` says: `truncated` when the file
    /// ends inside a header or record, else `invalid-value`.
    static func code(ofRefusal message: String) -> DecodeError.Code {
        message.contains("truncated") ? .truncated : .invalidValue
    }

    /// The file offset of the next byte libpcap reads.
    var offset: Int64 { StdioStream.offset(stream) }

    /// Moves libpcap's stream to `offset`, where libpcap reads on, keeping what it read of
    /// the file's header (and, in pcapng, the section's interfaces); false when the stream
    /// cannot be moved (a pipe).
    func seek(to offset: Int64) -> Bool {
        window.release(movingTo: offset)
    }

    /// The bytes passed over from `start`: up to `resume` when the stream moves there and
    /// libpcap reads on from it, else (no resumption point, or a stream that cannot move) to
    /// the end of the file (`size`).
    func skip(from start: Int64, to resume: Int64?, size: Int64) -> SkippedBytes {
        if let resume, seek(to: resume) { return SkippedBytes(range: start..<resume, resynchronized: true) }
        return SkippedBytes(range: start..<size, resynchronized: false)
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the stream; how many, or −1.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        StdioStream.read(stream, at: offset, into: buffer)
    }
}
