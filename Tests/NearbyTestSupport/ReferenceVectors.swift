import NearbyBytes

/// Byte vectors of beacon advertisements and the records that carry them, each with where it
/// comes from. Their expected decodes are stated in the tests beside the assertions, from the
/// clauses the tests cite (docs/spec/), not from this package's output.
public enum ReferenceVectors {
    public static func bytes(_ hex: String) -> [UInt8] {
        guard let b = Hex.decode(hex) else { fatalError("bad hex in a test vector: \(hex)") }
        return b
    }

    // Eddystone: whole advertisements (AD data), Flags and the 0xFEAA UUID list first
    // (EDDYSTONE-FRAME-2, EDDYSTONE-FRAME-5). The EID is the one ephemeral_calc publishes for
    // its test key at about 2000 s; the eTLM is built from the debug inputs of Nordic's
    // Eddystone firmware.
    /// UID, tx −18 dBm, namespace 8b0ca750095477cb3e77, instance 000000000001 (31 bytes).
    public static let uidAdvert = bytes("0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000")
    /// URL https://www.example.com, tx +10 dBm.
    public static let urlAdvert = bytes("0201060303aafe0e16aafe100a016578616d706c6507")
    /// TLM 3000 mV, 25.5 °C, ADV_CNT 1000, SEC_CNT 36000 (3600.0 s).
    public static let tlmAdvert = bytes("0201060303aafe1116aafe20000bb81980000003e800008ca0")
    /// TLM with nothing supported: VBATT 0, TEMP 0x8000.
    public static let tlmNothingSupportedAdvert = bytes("0201060303aafe1116aafe2000000080000000000000000000")
    /// EID 4144413e45fefa58, tx −4 dBm.
    public static let eidAdvert = bytes("0201060303aafe0d16aafe30fc4144413e45fefa58")
    /// eTLM: ETLM d5d89979ae79ebee4e385fa5, SALT f683, MIC 0efb.
    public static let etlmAdvert = bytes("0201060303aafe1516aafe2001d5d89979ae79ebee4e385fa5f6830efb")
    // iBeacon (IBEACON-2, IBEACON-9).
    /// iBeacon e2c56db5-dffb-48d2-b060-d0f5a71096e0, major 1, minor 2, −59 dBm.
    public static let iBeaconAdvert = bytes("0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
    /// Manufacturer data quoted from a real capture: uuid 4edce915-9fbb-618b-47f6-f203bbdd089a,
    /// major 16124, minor 52772, −72 dBm.
    public static let iBeaconNobleMSD = bytes("4c0002154edce9159fbb618b47f6f203bbdd089a3efcce24b8")
    // AltBeacon (ALTBEACON-2): android-beacon-library's test fixtures.
    /// mfg 0x0118, id 2f234454-cf6d-4a0f-adf2-f4911ba9ffa6 / 1 / 2, ref −59 dBm, reserved 9.
    public static let altBeaconAdvert = bytes("02011a1bff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c50900")
    /// AD length 0x1A: the reserved byte is missing; it still parses (ALTBEACON-11).
    public static let altBeaconShortAdvert = bytes("02011a1aff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c5000000")
    /// A manufacturer AD `04 ff e0 00 be`: not a beacon, and no error (ALTBEACON-4).
    public static let notAltBeaconAdvert = bytes("02010604ffe000be")

    // Records carrying the advertisements above: HCI events and link-layer packets, built by
    // hand and checked against TShark's dissectors.
    /// H4 LE Advertising Report with two reports: Eddystone-UID from c0:ff:ee:00:00:01
    /// (random, −60 dBm, ADV_NONCONN_IND) and iBeacon from 00:11:22:33:44:55 (public, −72 dBm).
    public static let twoReportEvent = bytes(
        "043e5302020301010000eeffc01f0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000c4"
            + "03005544332211001e0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5b8"
    )
    /// That event in a btsnoop 1002 file, flags 3, at Unix time 1700000000.123456.
    public static let twoReportBtsnoopFile =
        bytes(
            "6274736e6f6f700000000001000003ea" + "0000005600000056000000030000000000e2e7d7274fa240")
        + twoReportEvent
    /// A LINKTYPE 201 record: direction 1 (received), then the event.
    public static let twoReportPcap201Record = bytes("00000001") + twoReportEvent
    /// LINKTYPE 251: ADV_NONCONN_IND from c0:ff:ee:00:00:02 (TxAdd random) with the EID
    /// advert, CRC a0 80 93 accepted by TShark.
    public static let eidLL251Packet = bytes("d6be898e421b020000eeffc00201060303aafe0d16aafe30fc4144413e45fefa58a08093")
    /// LINKTYPE 256: RF channel 37 (= channel index 35), signal −55 dBm, noise −90 dBm,
    /// flags 0x0c17 (CRC checked and valid), then the 251 packet.
    public static let eidLL256Record = bytes("25c9a600d6be898e170c") + eidLL251Packet
    /// LE Extended Advertising Report: one legacy ADV_NONCONN_IND (0x0010) from
    /// c0:ff:ee:00:00:02 random, 1M/none, SID 0xff, tx 127 (n/a), RSSI −55, EID advert.
    public static let eidExtendedReportEvent = bytes(
        "043e2f0d01100001020000eeffc00100ff7fc9000000000000000000150201060303aafe0d16aafe30fc4144413e45fefa58")
}
