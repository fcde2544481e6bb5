import NearbyBytes
import NearbyFormats

/// The AD-level targets: AD data as a whole, and each beacon frame decoder on the bytes it
/// is given in an advertisement. Seeds are the AD data of the repository's captures and
/// frame vectors, and the frames inside them.
extension FuzzTarget {
    /// AD data (Core Vol 3 Part C §11): AD structures, then every frame decoder they reach.
    public static let adStructures = FuzzTarget(
        name: "ad-structures", summary: "AD data: AD structures and the beacon frames in them", dictionary: "ad",
        check: { checkAdvertisingData(Array($0)) },
        seeds: { SeedSource.advertisingData($0) })

    /// Eddystone service data after UUID 0xFEAA: UID, URL, TLM, eTLM, EID and unknown frames.
    public static let eddystoneFrame = FuzzTarget(
        name: "eddystone-frame", summary: "Eddystone service data after UUID 0xFEAA", dictionary: "ad",
        check: { input in
            do throws(DecodeError) { _ = try EddystoneFrame(serviceData: Array(input)[...]) } catch {
                return checkError(error, within: input.count)
            }
            return []
        },
        seeds: {
            SeedSource.payloads(
                SeedSource.advertisingData($0), type: .serviceData16BitUUID, prefix: [0xAA, 0xFE], dropping: 2)
        })

    /// iBeacon: manufacturer data (company identifier little-endian, then the data).
    public static let iBeaconFrame = FuzzTarget(
        name: "ibeacon-frame", summary: "manufacturer data read as iBeacon", dictionary: "ad",
        check: { input in
            guard let (company, data) = manufacturerData(input) else { return [] }
            do throws(DecodeError) {
                if let b = try IBeacon(company: company, data: data),
                    b.uuid.count != 16
                {
                    return ["an iBeacon with a \(b.uuid.count)-byte UUID"]
                }
            } catch { return checkError(error, within: input.count) }
            return []
        },
        seeds: {
            SeedSource.payloads(
                SeedSource.advertisingData($0), type: .manufacturerSpecificData, prefix: [], dropping: 0)
        })

    /// AltBeacon: manufacturer data of any company with the beacon code 0xBEAC.
    public static let altBeaconFrame = FuzzTarget(
        name: "altbeacon-frame", summary: "manufacturer data read as AltBeacon", dictionary: "ad",
        check: { input in
            guard let (company, data) = manufacturerData(input) else { return [] }
            do throws(DecodeError) {
                if let b = try AltBeacon(company: company, data: data),
                    b.beaconID.count != 20
                {
                    return ["an AltBeacon with a \(b.beaconID.count)-byte beacon ID"]
                }
            } catch { return checkError(error, within: input.count) }
            return []
        },
        seeds: {
            SeedSource.payloads(
                SeedSource.advertisingData($0), type: .manufacturerSpecificData, prefix: [], dropping: 0)
        })

    /// Token advertisement v1 (docs/spec/ble-token.md): service data after UUID 0xFEF3. A v1
    /// token decoded must encode back to exactly the input (the decoder is strict).
    public static let tokenAdvertisement = FuzzTarget(
        name: "token-advertisement", summary: "service data after UUID 0xFEF3 read as a token advertisement",
        dictionary: "ad",
        check: { input in
            let bytes = Array(input)
            do throws(DecodeError) {
                if case .v1(let token)? = try TokenAdvertisement.decode(serviceData: bytes[...]),
                    token.serviceData != bytes
                {
                    return [
                        "token advertisement \(Hex.encode(bytes)) decodes to one that encodes as "
                            + "\(Hex.encode(token.serviceData))"
                    ]
                }
            } catch { return checkError(error, within: bytes.count) }
            return []
        },
        seeds: {
            SeedSource.payloads(
                SeedSource.advertisingData($0), type: .serviceData16BitUUID, prefix: [0xF3, 0xFE], dropping: 2)
        })

    /// Manufacturer data as the AD decoder splits it: the company identifier
    /// (little-endian), then the data; nil when there are not 2 bytes.
    static func manufacturerData(_ input: UnsafeRawBufferPointer) -> (CompanyIdentifier, ArraySlice<UInt8>)? {
        guard input.count >= 2 else { return nil }
        let bytes = Array(input)
        return (CompanyIdentifier(rawValue: UInt16(bytes[1]) << 8 | UInt16(bytes[0])), bytes[2...])
    }

    /// AD data decoded whole: every fault has a reason and lies inside the data.
    static func checkAdvertisingData(_ data: [UInt8]) -> [String] {
        AdvertisingDataDecoder.decode(data[...]).errors.flatMap { checkError($0, within: data.count) }
    }

    /// A decode error must say why and point inside the bytes it was given.
    static func checkError(_ error: DecodeError, within count: Int) -> [String] {
        var out: [String] = []
        if error.reason.isEmpty { out.append("an error without a reason: \(error)") }
        if error.offset < 0 || error.offset > count {
            out.append("error at offset \(error.offset), outside the \(count) bytes given: \(error)")
        }
        return out
    }
}
