import CPcap

/// Writes classic pcap files through libpcap (`pcap_open_dead_with_tstamp_precision`,
/// `pcap_dump_open`, `pcap_dump`), microsecond timestamps.
public final class PcapWriter {
    private let dead: OpaquePointer
    private var dumper: OpaquePointer?
    public let linkType: LinkType

    public init(path: String, linkType: LinkType, snapLength: Int = 262_144) throws(CaptureFileError) {
        guard
            let d = pcap_open_dead_with_tstamp_precision(
                Int32(bitPattern: linkType.rawValue), Int32(snapLength),
                UInt32(PCAP_TSTAMP_PRECISION_MICRO))
        else {
            throw CaptureFileError(path: path, code: .unwritable, reason: "libpcap: pcap_open_dead failed")
        }
        guard let out = pcap_dump_open(d, path) else {
            let message = String(cString: pcap_geterr(d))
            pcap_close(d)
            throw CaptureFileError(path: path, code: .unwritable, reason: "libpcap: " + message)
        }
        dead = d
        dumper = out
        self.linkType = linkType
    }

    /// Appends one record; `originalLength` defaults to the byte count.
    public func write(_ bytes: [UInt8], timestampMicros: Int64, originalLength: Int? = nil) {
        guard let dumper else { return }
        var header = pcap_pkthdr()
        let (seconds, micros) = timestampMicros.quotientAndRemainder(dividingBy: 1_000_000)
        header.ts.tv_sec = Int(seconds)
        header.ts.tv_usec = Int(micros)
        header.caplen = UInt32(bytes.count)
        header.len = UInt32(originalLength ?? bytes.count)
        bytes.withUnsafeBufferPointer { buf in
            pcap_dump(UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self), &header, buf.baseAddress)
        }
    }

    /// Writes the records appended so far through to the file. False when that failed.
    @discardableResult
    public func flush() -> Bool {
        guard let dumper else { return false }
        return pcap_dump_flush(dumper) == 0
    }

    public func close() {
        if let dumper { pcap_dump_close(dumper) }
        dumper = nil
    }

    deinit {
        close()
        pcap_close(dead)
    }
}
