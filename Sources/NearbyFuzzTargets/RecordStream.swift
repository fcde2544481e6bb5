import NearbyCapture

/// How the record-level fuzz targets read their input: a selector byte choosing the
/// encapsulation, then the records, each a 2-byte big-endian length and that many bytes (a
/// last record may be cut short). Several records per input let the fuzzer reach the
/// state kept between records: extended-advertising chains and their reassembly.
struct RecordStream {
    /// The encapsulations a target chooses among; the selector byte is taken modulo their count.
    let encapsulations: [Encapsulation]

    /// The input as an encapsulation and records (each record's bytes a fresh array, so
    /// that its indices start at 0 as a container's would).
    func split(_ input: UnsafeRawBufferPointer) -> (Encapsulation, [[UInt8]])? {
        guard let selector = input.first else { return nil }
        var records: [[UInt8]] = []
        var i = 1
        while i < input.count {
            let length = i + 1 < input.count ? Int(input[i]) << 8 | Int(input[i + 1]) : 0
            let start = min(i + 2, input.count)
            let end = min(start + length, input.count)
            records.append(Array(input[start..<end]))
            i = end
        }
        return (encapsulations[Int(selector) % encapsulations.count], records)
    }

    /// The input that `split` reads as `records` in `encapsulation` (nil when the target
    /// does not take that encapsulation).
    func join(_ encapsulation: Encapsulation, _ records: [[UInt8]]) -> [UInt8]? {
        guard let selector = encapsulations.firstIndex(of: encapsulation) else { return nil }
        var out = [UInt8(selector)]
        for r in records where r.count <= 0xFFFF {
            out += [UInt8(r.count >> 8), UInt8(r.count & 0xFF)] + r
        }
        return out
    }

    /// Seeds: the repository's records of each encapsulation this stream takes, in runs of
    /// up to `run` consecutive records of one capture.
    func seeds(_ root: String, run: Int = 6) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var current: (Encapsulation, [[UInt8]])?
        func flush() {
            if let (e, records) = current, !records.isEmpty, let joined = join(e, records) { out.append(joined) }
            current = nil
        }
        for (e, bytes) in SeedSource.records(root) where encapsulations.contains(e) {
            if current?.0 != e || current!.1.count >= run {
                flush()
                current = (e, [])
            }
            current!.1.append(bytes)
        }
        flush()
        return out
    }
}
