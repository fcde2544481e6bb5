import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats

/// The record-level targets: records handed straight to `RecordDecoder`, skipping the
/// containers, so that every input exercises the link layers (see `RecordStream` for the
/// input layout). Each advertisement completed is decoded down to its beacon frames.
extension FuzzTarget {
    /// HCI: H4 packets (LINKTYPE 187, 201 with its direction header, btsnoop 1002, hex
    /// text), HCI events without indicator (btsnoop 1001) and Linux monitor records
    /// (LINKTYPE 254, btsnoop 2001): advertising, directed and extended reports.
    public static let hciRecords = records(
        "hci-records", "HCI records: H4 packets, bare events and monitor records",
        RecordStream(encapsulations: [
            .pcap(.bluetoothHCIH4), .pcap(.bluetoothHCIH4WithPHDR), .pcap(.bluetoothLinuxMonitor),
            .btsnoop(.hciUnencapsulated, flags: 3), .btsnoop(.hciUART, flags: 1), .btsnoop(.linuxMonitor, flags: 3),
            .hexText,
        ]), dictionary: "hci")

    /// Link layer: advertising-channel PDUs bare (LINKTYPE 251), with the LE pseudo-header
    /// (256) and with the Nordic sniffer header (272).
    public static let linkLayerRecords = records(
        "link-layer-records", "advertising-channel PDUs: bare, LE pseudo-header, Nordic sniffer",
        RecordStream(encapsulations: [
            .pcap(.bluetoothLELL), .pcap(.bluetoothLELLWithPHDR), .pcap(.nordicBLE),
        ]), dictionary: "link-layer")

    private static func records(
        _ name: String, _ summary: String, _ stream: RecordStream, dictionary: String
    ) -> FuzzTarget {
        FuzzTarget(
            name: name, summary: summary, dictionary: dictionary,
            check: { input in
                guard let (encapsulation, records) = stream.split(input) else { return [] }
                return checkRecords(encapsulation, records)
            },
            seeds: { root in stream.seeds(root) })
    }

    /// Decodes the records in order; what must hold: a malformed record's error has a reason
    /// and an offset inside the record; an advertisement names a record already fed, its
    /// data fits the reassembly limit, and every AD fault has a reason and lies inside the data.
    static func checkRecords(_ encapsulation: Encapsulation, _ records: [[UInt8]]) -> [String] {
        var violations: [String] = []
        var decoder = RecordDecoder()
        var fed = 0
        func check(_ advertisement: Advertisement) {
            if advertisement.record < 1 || advertisement.record > fed {
                violations.append("an advertisement names record \(advertisement.record) of \(fed) fed")
            }
            let data = advertisement.data ?? []
            if data.count > ExtendedAdvertisingReassembler.maximumDataLength {
                violations.append(
                    "\(data.count) bytes of AD data, more than the "
                        + "\(ExtendedAdvertisingReassembler.maximumDataLength) a chain may hold"
                )
            }
            violations += checkAdvertisingData(Array(data))
        }
        for bytes in records {
            fed += 1
            let record = CaptureRecord(
                index: fed, timestampMicros: Int64(fed), encapsulation: encapsulation,
                bytes: bytes[...])
            let (outcome, advertisements) = decoder.decode(record)
            advertisements.forEach(check)
            if case .malformed(let error) = outcome {
                violations += checkError(error, within: bytes.count).map { "record \(fed): " + $0 }
            }
        }
        decoder.finish().forEach(check)
        return violations
    }
}
