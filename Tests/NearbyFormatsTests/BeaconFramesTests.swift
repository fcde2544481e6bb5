import NearbyBytes
import Testing

@testable import NearbyFormats

/// `BeaconFrames`: an array's value semantics, and frames dropped without destroying only
/// when they hold no reference.
@Suite struct BeaconFramesTests {
    static let uid = BeaconFrame.eddystone(
        .uid(EddystoneUID(txPowerDBm: -20, namespace: ShortBytes(0..<10), instance: ShortBytes(10..<16))))
    static let tlm = BeaconFrame.eddystone(
        .tlm(EddystoneTLM(batteryRaw: 3000, temperatureRaw: 6528, advertisingCount: 4096, uptimeTenths: 540)))
    static let token = BeaconFrame.token(.v1(TokenAdvertisement(token: [1, 2, 3, 4, 5, 6], txPowerDBm: -12)))
    static let shortURL = BeaconFrame.eddystone(.url(EddystoneURL(txPowerDBm: -20, scheme: 3, encoded: [101, 7])))
    /// 40 encoded bytes: more than `InlineBytes.inlineCapacity`, on the heap.
    static let longURL = BeaconFrame.eddystone(
        .url(EddystoneURL(txPowerDBm: -20, scheme: 3, encoded: Array(repeating: 0x61, count: 40))))

    /// Service data after the 0xFEAA UUID (docs/formats.md §1), frame type byte first.
    static func eddystone(_ serviceData: [UInt8]) throws -> BeaconFrame {
        .eddystone(try EddystoneFrame(serviceData: serviceData[...]))
    }

    /// The payloads `BeaconFrame.holdsReferences` says need no destroying are plain values
    /// (integers and `ShortBytes` only), and the others are not: a field added to one of them
    /// that holds a reference fails this test before it leaks.
    @Test func framesClaimedReferenceFreeHavePlainValuePayloads() {
        #expect(_isPOD(EddystoneUID.self))
        #expect(_isPOD(EddystoneTLM.self))
        #expect(_isPOD(EddystoneEID.self))
        #expect(_isPOD(IBeacon.self))
        #expect(_isPOD(AltBeacon.self))
        #expect(_isPOD(TokenAdvertisement.self))
        #expect(!_isPOD(EddystoneURL.self))
        #expect(!_isPOD(EddystoneEncryptedTLM.self))
        #expect(!_isPOD(EddystoneE2EEEID.self))
        #expect(!_isPOD(BeaconFrame.self))
    }

    @Test func onlyFramesWithArraysOrHeapBytesHoldReferences() throws {
        #expect(!Self.uid.holdsReferences)
        #expect(!Self.tlm.holdsReferences)
        #expect(!Self.token.holdsReferences)
        #expect(!Self.shortURL.holdsReferences)
        #expect(Self.longURL.holdsReferences)
        // EID: frame type 0x30, Tx power, 8-byte EID (docs/formats.md §1).
        #expect(!(try Self.eddystone([0x30, 0xEC] + Array(1...8))).holdsReferences)
        // eTLM: frame type 0x20, version 1, 12 bytes of ciphertext, 2 of salt, 2 of MIC.
        #expect(try Self.eddystone([0x20, 0x01] + Array(1...16)).holdsReferences)
        // E2EE-EID: frame type 0x40 and a 20-byte EID.
        #expect(try Self.eddystone([0x40] + Array(1...20)).holdsReferences)
        // An unknown frame type keeps its service data.
        #expect(try Self.eddystone([0x50, 1, 2, 3]).holdsReferences)
        #expect(BeaconFrame.token(.unknownVersion(2, [1, 2])).holdsReferences)
    }

    @Test func framesReadBackInTheOrderAppendedPastTheFirstStorage() {
        var frames = BeaconFrames()
        let all = (0..<10).map { [Self.uid, Self.tlm, Self.token, Self.shortURL, Self.longURL][$0 % 5] }
        for frame in all { frames.append(frame) }
        #expect(Array(frames) == all)
        #expect(frames.count == 10)
        #expect(frames[4] == Self.longURL)
        #expect(frames.description == all.description)
    }

    @Test func aCopyKeepsItsFramesWhenTheOriginalIsEmptiedAndRefilled() {
        var frames: BeaconFrames = [Self.uid, Self.longURL]
        let copy = frames
        frames.removeAll()
        #expect(frames.isEmpty)
        frames.append(Self.token)
        #expect(Array(copy) == [Self.uid, Self.longURL])
        #expect(Array(frames) == [Self.token])

        var other = copy
        other.append(Self.tlm)
        #expect(copy.count == 2)
        #expect(Array(other) == [Self.uid, Self.longURL, Self.tlm])
    }

    @Test func emptiedFramesAreEqualToFreshOnesAndHashAlike() {
        var reused: BeaconFrames = [Self.uid, Self.tlm, Self.token, Self.longURL]
        reused.removeAll()
        reused.append(Self.shortURL)
        let fresh: BeaconFrames = [Self.shortURL]
        #expect(reused == fresh)
        #expect(reused.hashValue == fresh.hashValue)
        #expect(reused != [Self.shortURL, Self.shortURL])
    }

    /// A frame holding an array gives it back when it is removed, and when the frames are
    /// dropped: the array is then uniquely held again, so changing it does not copy it.
    @Test func framesHoldingReferencesReleaseThemWhenRemovedOrDropped() {
        var serviceData: [UInt8] = Array(0..<40)
        let address = serviceData.withUnsafeBufferPointer { $0.baseAddress }
        var frames = BeaconFrames()
        frames.append(.eddystone(.unknown(frameType: 0x50, serviceData: serviceData)))
        frames.append(Self.uid)
        frames.removeAll()
        serviceData.withUnsafeMutableBufferPointer { #expect(UnsafePointer($0.baseAddress) == address) }

        do {
            var held = BeaconFrames()
            held.append(.eddystone(.unknown(frameType: 0x50, serviceData: serviceData)))
            #expect(held.count == 1)
        }
        serviceData.withUnsafeMutableBufferPointer { #expect(UnsafePointer($0.baseAddress) == address) }
    }
}
