import CPcap
import NearbyBytes

/// Reads pcapng files through libpcap (`LibpcapFile`), with microsecond timestamps whatever
/// the interface's resolution, beside a walk of their blocks (PCAPNG-10, PCAPNG-11,
/// DAMAGE-14).
///
/// libpcap reads the blocks from its stream in file order and returns every packet block it
/// reads; after each packet, the blocks from `blockEnd` are walked by their framing
/// (`PcapngBlockWalker`) up to the first packet block, the packet's, which gives the packet
/// its file offset; any block before it of a type no writer uses (one whose type field was
/// damaged; libpcap passes such a block over in silence) is reported as damage, its bytes
/// skipped. When libpcap gives up at a block, the walk from `blockEnd` finds that block,
/// which is skipped whole when its framing holds, else with the bytes up to the next run of
/// well-framed blocks; libpcap's stream is moved there. Bytes before `blockEnd` are never
/// read again.
public final class PcapngFileReader: CaptureRecordReader, SteppingReader {
    public var format: CaptureFormat { .pcapng }
    /// The link type of the section's first interface.
    public let linkType: LinkType
    /// The snapshot length of the section's first interface (PCAPNG-4).
    public var snapshotLength: Int { file.snapshotLength }
    public var encapsulationDescription: String { "pcapng LINKTYPE \(linkType)" }

    let file: LibpcapFile
    var core = ReaderCore()
    /// Set when libpcap has nothing more to read.
    var done = false
    /// The blocks beside libpcap; nil when the file cannot be read at an offset.
    var walker: PcapngBlockWalker?
    /// File offset of the block after the last packet libpcap returned.
    var blockEnd: Int64
    /// A packet libpcap returned after blocks reported as damage, lent once they are.
    var pendingPacket: (metadata: RecordMetadata, bytes: UnsafeRawBufferPointer)?

    public init(path: String) throws(CaptureFileError) {
        file = try LibpcapFile(path: path)
        linkType = file.linkType
        walker = FileWindow(path: path).map { PcapngBlockWalker(window: $0) }
        blockEnd = file.offset
    }

    public func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        readSteps(body)
    }

    /// Reports the damage found before, else lends the next packet.
    func step(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        if let step = core.reportWaiting() { return step }
        if let (metadata, bytes) = pendingPacket {
            pendingPacket = nil
            var numbered = metadata
            numbered.index = core.number()
            body(RecordView(numbered, bytes: Span(_unsafeBytes: bytes)))
            return .record
        }
        guard !done else { return .end }
        switch file.next() {
        case .packet(let h, let bytes):
            return take(h, bytes, body)
        case .end:
            trailingBlocks()
            return core.reportWaiting() ?? .end
        case .refused(let message):
            let code = LibpcapFile.code(ofRefusal: message)
            return recover(DecodeError(.pcap, code, at: 0, "libpcap: \(message)"))
        }
    }

    /// Lends the packet libpcap returned (`h`, its bytes at `bytes`), after the damage found
    /// in the blocks before it.
    private func take(
        _ h: pcap_pkthdr, _ bytes: UnsafeRawBufferPointer, _ body: (borrowing RecordView) -> Void
    ) -> CaptureReadStep {
        var packet: (start: Int64, dataStart: Int64)?
        if walker != nil {
            // libpcap returns every packet block it reads: the first after `blockEnd` is this
            // packet's, the blocks before it ones libpcap passed over.
            let (at, block) = walk { block, _ in PcapngBlockWalker.isPacket(type: block.type) }
            if let block {
                packet = (at, at + block.dataOffset)
                blockEnd = at + block.length
            } else {
                // Out of step with libpcap (a block it read that the walk cannot frame): go on
                // from where libpcap stands.
                blockEnd = file.offset
            }
            if let packet, let walker, let lie = lengthLie(packetAt: packet.start, walker: walker) {
                return core.report(queuing: lie)
            }
        }
        // pcapng timestamps are 64-bit counts of any resolution: seconds beyond what
        // microseconds in an Int64 hold (±292,000 years) are damage, not a time (PCAPNG-6).
        let (scaled, overflow) = Int64(h.ts.tv_sec).multipliedReportingOverflow(by: 1_000_000)
        let (micros, overflow2) = scaled.addingReportingOverflow(Int64(h.ts.tv_usec))
        guard !overflow && !overflow2 else {
            return core.report(
                queuing: ContainerFault(
                    at: packet?.start,
                    DecodeError(
                        .pcap, .invalidValue, at: 0,
                        "timestamp \(h.ts.tv_sec) s is beyond the representable range (±292,000 years)")))
        }
        let metadata = RecordMetadata(
            index: 0, timestampMicros: micros, encapsulation: .pcap(linkType), originalLength: Int(h.len),
            fileOffset: packet?.dataStart)
        // After damage found before it, the packet is lent once the damage is reported, from
        // libpcap's buffer: libpcap reads nothing before.
        if let step = core.reportWaiting() {
            pendingPacket = (metadata, bytes)
            return step
        }
        var numbered = metadata
        numbered.index = core.number()
        body(RecordView(numbered, bytes: Span(_unsafeBytes: bytes)))
        return .record
    }

    /// DAMAGE-14: the fault for the packet block at `start` (ending at `blockEnd`) when the
    /// bytes after it do not frame a block and a run of well-framed blocks starts inside it
    /// that reads the bytes better than the run after it (DAMAGE-7, DAMAGE-12): its total
    /// length lies (a trailer that happens to repeat it lets libpcap read it), and its octets
    /// up to that run are skipped. Nil when the packet is whole.
    private func lengthLie(packetAt start: Int64, walker: PcapngBlockWalker) -> ContainerFault? {
        let end = blockEnd
        guard end < walker.window.size, walker.block(at: end) == nil else { return nil }
        let scan = Self.pcapngScan(walker)
        let block = ProbedRecord(start: start, end: end, timestampMicros: nil)
        guard let resume = scan.resumption(after: block, anchored: false), resume < end else { return nil }
        let skip = skip(from: start, to: resume, size: scan.size)
        return ContainerFault(
            at: start + 4,
            DecodeError(
                .pcap, .invalidValue, at: 4,
                "block total length \(end - start) runs past the next plausible block, at byte \(resume); \(skip)"),
            skipped: skip)
    }

    /// The scan for runs of well-framed blocks of legal types (DAMAGE-4), in the byte order
    /// `walker` stands in.
    private static func pcapngScan(_ walker: PcapngBlockWalker) -> Resynchronizer {
        Resynchronizer(window: walker.window, headerLength: 12) { window, offset in
            walker.probe(window, at: offset)
        }
    }

    /// Walks the blocks from `blockEnd` by their framing up to the first that `stop` accepts
    /// (given the block and its offset), queuing as damage each block passed over whose type
    /// no writer uses (PCAPNG-10, PCAPNG-11). Returns that block and its offset, or the
    /// offset where the framing ends and no block. Nothing without a walker.
    private func walk(
        until stop: (PcapngBlockWalker.Block, Int64) -> Bool
    ) -> (at: Int64, block: PcapngBlockWalker.Block?) {
        guard var w = walker else { return (blockEnd, nil) }
        defer { walker = w }
        var at = blockEnd
        while let block = w.block(at: at) {
            if stop(block, at) { return (at, block) }
            if !PcapngBlockWalker.isLegal(type: block.type) { core.faults.append(strayBlock(block, at: at)) }
            at = w.pass(block, at: at)
        }
        return (at, nil)
    }

    /// At the end of the file: the blocks after the last packet that no writer uses, queued
    /// as the blocks before a packet are. The file then ends.
    private func trailingBlocks() {
        done = true
        blockEnd = walk { _, _ in false }.at
    }

    /// libpcap gave up (`problem`) at a block after `blockEnd`: reports the blocks of types no
    /// writer uses before it, and it, skipping it and reading on past it (DAMAGE-14).
    private func recover(_ problem: DecodeError) -> CaptureReadStep {
        guard walker != nil else {
            done = true
            return core.report(ContainerFault(at: nil, problem))
        }
        // libpcap read up to here: the block it gave up at is the one that ends here, or
        // that runs past it, or the first whose framing fails.
        let stopped = file.offset
        let (at, framed) = walk { block, at in
            at + block.length >= stopped || PcapngBlockWalker.isPacket(type: block.type)
        }
        let scan = Self.pcapngScan(walker!)
        var resume: Int64?
        if let framed, at + framed.length < scan.size, scan.runStarts(at: at + framed.length) {
            resume = at + framed.length
        } else {
            resume = scan.firstRun(after: at, anchor: nil)
        }
        let skip = skip(from: at, to: resume, size: scan.size)
        return core.report(
            queuing: ContainerFault(
                at: at, DecodeError(.pcap, problem.code, at: 0, "\(problem.reason) (block at byte \(at)); \(skip)"),
                skipped: skip))
    }

    /// The fault for a block at `offset` whose framing holds but whose type no writer uses
    /// (`PcapngBlockWalker.isLegal`): libpcap passed it over (PCAPNG-11).
    private func strayBlock(_ block: PcapngBlockWalker.Block, at offset: Int64) -> ContainerFault {
        let skip = SkippedBytes(range: offset..<(offset + block.length), resynchronized: true)
        let type = String(block.type, radix: 16)
        return ContainerFault(
            at: offset,
            DecodeError(
                .pcap, .invalidValue, at: 0,
                "block type 0x\(String(repeating: "0", count: 8 - type.count) + type) is reserved: a damaged block "
                    + "type; \(skip)"),
            skipped: skip)
    }

    /// Skips the bytes from `start` to `resume` (or to the end of the file, which then ends),
    /// libpcap reading on past them.
    private func skip(from start: Int64, to resume: Int64?, size: Int64) -> SkippedBytes {
        let skip = file.skip(from: start, to: resume, size: size)
        done = !skip.resynchronized
        blockEnd = skip.range.upperBound
        return skip
    }
}
