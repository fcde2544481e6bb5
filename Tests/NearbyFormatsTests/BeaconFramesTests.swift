import NearbyBytes
import NearbyTestSupport
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

    /// Service data after the 0xFEAA UUID (EDDYSTONE-FRAME-2), frame type byte first.
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
        // EID: frame type 0x30, Tx power, 8-byte EID (EDDYSTONE-EID-1, EDDYSTONE-EID-2).
        #expect(!(try Self.eddystone([0x30, 0xEC] + Array(1...8))).holdsReferences)
        // eTLM: frame type 0x20, version 1, 12 bytes of ciphertext, 2 of salt, 2 of MIC
        // (EDDYSTONE-ETLM-1).
        #expect(try Self.eddystone([0x20, 0x01] + Array(1...16)).holdsReferences)
        // E2EE-EID: frame type 0x40 and a 20-byte EID (EDDYSTONE-E2EE-1).
        #expect(try Self.eddystone([0x40] + Array(1...20)).holdsReferences)
        // An unknown frame type keeps its service data (EDDYSTONE-FRAME-10).
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

    /// The decoder's path: frames added after `removeAllOwningStorage` without the uniqueness
    /// check keep their order past the first storage, and a copy taken before is not changed.
    @Test func framesAddedToOwnStorageLeaveEarlierCopiesAlone() {
        let all = (0..<10).map { [Self.uid, Self.tlm, Self.token, Self.shortURL, Self.longURL][$0 % 5] }
        var frames = BeaconFrames()
        frames.removeAllOwningStorage()
        for frame in all { frames.appendToOwnStorage(frame) }
        #expect(Array(frames) == all)

        let copy = frames
        frames.removeAllOwningStorage()
        frames.appendToOwnStorage(Self.tlm)
        #expect(Array(copy) == all)
        #expect(Array(frames) == [Self.tlm])

        // An empty copy shares the storage too.
        frames.removeAllOwningStorage()
        let emptyCopy = frames
        frames.removeAllOwningStorage()
        frames.appendToOwnStorage(Self.uid)
        #expect(emptyCopy.isEmpty)
        #expect(Array(frames) == [Self.uid])
    }

    /// `decode(_:into:)` replaces what the contents held (frames, Tx power, faults) without
    /// `removeAll()`, and frames a consumer kept from an earlier decode stay as they were.
    /// Expected frames: the UID, iBeacon and EID vectors of `ReferenceVectors`, as
    /// BeaconVectorTests reads them (EDDYSTONE-UID-3, IBEACON-6, EDDYSTONE-EID-2).
    @Test func decodingIntoReusedContentsReplacesThemAndLeavesKeptFramesAlone() throws {
        func decode(_ data: [UInt8], into contents: inout AdvertisingDataContents) {
            InlineBytes(data).withCursor(layer: .adStructure) { AdvertisingDataDecoder.decode(&$0, into: &contents) }
        }
        var contents = AdvertisingDataContents()
        decode([0x02, 0x0A, 0xF4] + ReferenceVectors.uidAdvert, into: &contents)
        guard case .eddystone(.uid(let uid))? = contents.beacons.first, contents.beacons.count == 1 else {
            Issue.record("expected one UID frame, got \(contents.beacons)")
            return
        }
        #expect(Hex.encode(uid.namespace) == "8b0ca750095477cb3e77")
        #expect(contents.txPowerLevelDBm == -12)
        let kept = contents.beacons

        decode(ReferenceVectors.iBeaconAdvert, into: &contents)
        guard case .iBeacon(let beacon)? = contents.beacons.first, contents.beacons.count == 1 else {
            Issue.record("expected one iBeacon frame, got \(contents.beacons)")
            return
        }
        #expect(beacon.major == 1 && beacon.minor == 2)
        #expect(contents.txPowerLevelDBm == nil)
        #expect(Array(kept) == [.eddystone(.uid(uid))])

        // A structure whose length overruns the data: `ad/length-overrun` (ad-structures.md).
        decode([0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C], into: &contents)
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.map(\.code) == [.lengthOverrun])
        let keptEmpty = contents.beacons

        decode(ReferenceVectors.eidAdvert, into: &contents)
        #expect(contents.errors.isEmpty)
        #expect(contents.beacons.count == 1)
        #expect(keptEmpty.isEmpty)
        #expect(Array(kept) == [.eddystone(.uid(uid))])
    }
}
