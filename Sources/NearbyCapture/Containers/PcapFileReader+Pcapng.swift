import CPcap
import NearbyBytes
import NearbySystem

/// pcapng beside libpcap (PCAPNG-10, PCAPNG-11, DAMAGE-14). libpcap reads the blocks from
/// its stream in file order and returns every packet block it reads; after each packet, the
/// blocks from `blockEnd` are walked by their framing (`PcapngBlockWalker`) up to the first
/// packet block, the packet's, which gives the packet its file offset; any block before it of
/// a type no writer uses (one whose type field was damaged; libpcap passes such a block over
/// in silence) is reported as damage, its bytes skipped.
/// When libpcap gives up at a block, the walk from `blockEnd` finds that block, which is
/// skipped whole when its framing holds, else with the bytes up to the next run of
/// well-framed blocks; libpcap's stream is moved there. Bytes before `blockEnd` are never
/// read again.
extension PcapFileReader {
    /// Lends the packet libpcap returned (`h`, its bytes at `bytes`; `micros` nil when its
    /// time is beyond what microseconds in an Int64 hold), after the damage found in the
    /// blocks before it.
    func takePacket(
        _ h: pcap_pkthdr, bytes: UnsafeRawBufferPointer, micros: Int64?, _ body: (borrowing RecordView) -> Void
    ) -> CaptureReadStep {
        var steps: [CaptureReadStep] = []
        var packet: (start: Int64, dataStart: Int64)?
        if var walker = pcapngWalker {
            // libpcap returns every packet block it reads: the first after `blockEnd` is this
            // packet's, the blocks before it ones libpcap passed over.
            var at = blockEnd
            while let block = walker.block(at: at) {
                let next = walker.pass(block, at: at)
                if PcapngBlockWalker.isPacket(type: block.type) {
                    packet = (at, at + block.dataOffset)
                    blockEnd = next
                    break
                }
                // PCAPNG-10 (passed over), PCAPNG-11 (a damaged type).
                if !PcapngBlockWalker.isLegal(type: block.type) { steps.append(strayBlock(block, at: at)) }
                at = next
            }
            if packet == nil, let stream = pcap_file(handle) {
                // Out of step with libpcap (a block it read that the walk cannot frame): go on
                // from where libpcap stands.
                blockEnd = StdioStream.offset(stream)
            }
            pcapngWalker = walker
            if let packet, let lie = lengthLie(packetAt: packet.start, walker: walker) {
                steps.append(lie)
                return first(of: steps)
            }
        }
        let dataStart = packet?.dataStart
        index += 1
        guard let micros else {
            steps.append(
                .malformed(
                    index: index, fileOffset: packet?.start, line: nil,
                    DecodeError(
                        .pcap, .invalidValue, at: 0,
                        "timestamp \(h.ts.tv_sec) s is beyond the representable range (±292,000 years)"),
                    skipped: nil))
            return first(of: steps)
        }
        let metadata = RecordMetadata(
            index: index, timestampMicros: micros, encapsulation: .pcap(linkType), originalLength: Int(h.len),
            fileOffset: dataStart)
        guard steps.isEmpty else {
            // Lent at the next `read`, from libpcap's buffer: libpcap reads nothing before.
            pendingPacket = (metadata, bytes)
            return first(of: steps)
        }
        body(RecordView(metadata, bytes: Span(_unsafeBytes: bytes)))
        return .record
    }

    /// DAMAGE-14: the malformed step for the packet block at `start` (ending at `blockEnd`)
    /// when the bytes after it do not frame a block and a run of well-framed blocks starts
    /// inside it that reads the bytes better than the run after it (DAMAGE-7, DAMAGE-12):
    /// its total length lies (a trailer that happens to repeat it lets libpcap read it), and
    /// its octets up to that run are skipped. Nil when the packet is whole.
    private func lengthLie(packetAt start: Int64, walker: PcapngBlockWalker) -> CaptureReadStep? {
        let end = blockEnd
        guard end < walker.window.size, walker.block(at: end) == nil else { return nil }
        let scan = Self.pcapngScan(walker)
        let block = ProbedRecord(start: start, end: end, timestampMicros: nil)
        guard let resume = scan.resumption(after: block, anchored: false), resume < end else { return nil }
        index += 1
        let skip = goOn(skipping: start, to: resume, size: scan.size)
        blockEnd = skip.range.upperBound
        return .malformed(
            index: index, fileOffset: start + 4, line: nil,
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

    /// At the end of the file: the blocks after the last packet that no writer uses, reported
    /// as the blocks before a packet are (nil when there are none). The file then ends.
    func trailingBlocks() -> CaptureReadStep? {
        done = true
        guard var walker = pcapngWalker else { return nil }
        var steps: [CaptureReadStep] = []
        var at = blockEnd
        while at < walker.window.size, let block = walker.block(at: at) {
            if !PcapngBlockWalker.isLegal(type: block.type) { steps.append(strayBlock(block, at: at)) }
            at = walker.pass(block, at: at)
        }
        pcapngWalker = walker
        blockEnd = at
        return steps.isEmpty ? nil : first(of: steps)
    }

    /// libpcap gave up (`problem`) at a block after `blockEnd`: reports the blocks of types no
    /// writer uses before it, and it, skipping it and reading on past it (DAMAGE-14).
    func recoverPcapng(_ problem: DecodeError) -> CaptureReadStep {
        guard var walker = pcapngWalker, let stream = pcap_file(handle) else {
            index += 1
            done = true
            return .malformed(index: index, fileOffset: nil, line: nil, problem, skipped: nil)
        }
        // libpcap read up to here: the block it gave up at is the one that ends here, or
        // that runs past it, or the first whose framing fails.
        let stopped = StdioStream.offset(stream)
        var steps: [CaptureReadStep] = []
        var at = blockEnd
        var framed: PcapngBlockWalker.Block?
        while at < walker.window.size, let block = walker.block(at: at) {
            if at + block.length >= stopped || PcapngBlockWalker.isPacket(type: block.type) {
                framed = block
                break
            }
            if !PcapngBlockWalker.isLegal(type: block.type) { steps.append(strayBlock(block, at: at)) }
            at = walker.pass(block, at: at)
        }
        pcapngWalker = walker
        let scan = Self.pcapngScan(walker)
        var resume: Int64?
        if let framed, at + framed.length < scan.size, scan.runStarts(at: at + framed.length) {
            resume = at + framed.length
        } else {
            resume = scan.firstRun(after: at, anchor: nil)
        }
        let skip = goOn(skipping: at, to: resume, size: scan.size)
        blockEnd = skip.range.upperBound
        index += 1
        steps.append(
            .malformed(
                index: index, fileOffset: at, line: nil,
                DecodeError(.pcap, problem.code, at: 0, "\(problem.reason) (block at byte \(at)); \(skip)"),
                skipped: skip))
        return first(of: steps)
    }

    /// The malformed step for a block at `offset` whose framing holds but whose type no
    /// writer uses (`PcapngBlockWalker.isLegal`): libpcap passed it over (PCAPNG-11).
    private func strayBlock(_ block: PcapngBlockWalker.Block, at offset: Int64) -> CaptureReadStep {
        index += 1
        let skip = SkippedBytes(range: offset..<(offset + block.length), resynchronized: true)
        let type = String(block.type, radix: 16)
        return .malformed(
            index: index, fileOffset: offset, line: nil,
            DecodeError(
                .pcap, .invalidValue, at: 0,
                "block type 0x\(String(repeating: "0", count: 8 - type.count) + type) is reserved: a damaged block "
                    + "type; \(skip)"),
            skipped: skip)
    }

    /// The first of `steps` (not empty), the others queued for the next `read`s.
    private func first(of steps: [CaptureReadStep]) -> CaptureReadStep {
        pendingSteps.append(contentsOf: steps.dropFirst())
        return steps[0]
    }
}
