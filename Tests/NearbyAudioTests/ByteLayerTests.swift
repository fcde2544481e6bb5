import NearbyAudio
import NearbyBytes
import Testing

/// The bit-exact vectors of docs/spec/nut-audio.md, "Test vectors (bit-exact)", which the draft's
/// prototypes also give.
@Suite struct ByteLayerTests {
    /// Holds NUT-27.
    @Test func crcCheckValueOf123456789Is0x29B1() {
        #expect(CRC16CCITT.checksum(Array("123456789".utf8)) == 0x29B1)
    }

    /// Holds NUT-25, NUT-27, NUT-28, NUT-29 and NUT-31.
    @Test func sixByteTokenHasTheSpecifiedCRCCodewordAndSymbols() throws {
        let token: [UInt8] = [0, 1, 2, 3, 4, 5]
        #expect(try NUTFrameCoding.header(tokenLength: 6) == 0)
        #expect(CRC16CCITT.checksum([0] + token) == 0x73C6)
        #expect(try NUTFrameCoding.codeword(token: token) == Hex.decode("00010203040573c682e83de3")!)
        #expect(
            try NUTFrameCoding.symbols(token: token)
                == [0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 7, 3, 12, 6, 8, 2, 14, 8, 3, 13, 14, 3])
    }

    /// Holds NUT-25, NUT-27, NUT-28 and NUT-29.
    @Test func sixteenByteTokenHasTheSpecifiedCRCAndCodeword() throws {
        let token = (0x10...0x1F).map { UInt8($0) }
        #expect(try NUTFrameCoding.header(tokenLength: 16) == 3)
        #expect(CRC16CCITT.checksum([3] + token) == 0xE2A6)
        #expect(
            try NUTFrameCoding.codeword(token: token)
                == Hex.decode("101112131415161718191a1b1c1d1e1fe2a6724fa4dd")!)
        let symbols = try NUTFrameCoding.symbols(token: token)
        #expect(symbols.count == 45)
        #expect(symbols.first == 3)
    }

    /// Holds NUT-26.
    @Test(arguments: [0, 1, 5, 7, 9, 15, 17, 32])
    func unsupportedTokenLengthsAreRefused(length: Int) {
        #expect(throws: AudioTokenError.unsupportedLength(length)) {
            try NUTFrameCoding.symbols(token: [UInt8](repeating: 0xAB, count: length))
        }
    }

    /// Holds NUT-7, NUT-24 and NUT-31.
    @Test func symbolCountsAndFrameDurationsMatchTheTable() {
        #expect([6, 8, 12, 16].map { NUTFrameCoding.symbolCount(tokenLength: $0) } == [25, 29, 37, 45])
        let inaudible = [6, 8, 12, 16].map { (InaudibleEncoder.frameDuration(tokenLength: $0) * 1000).rounded() }
        #expect(inaudible == [1496, 1709, 2136, 2563])
        let audible = [6, 16].map { (AudibleEncoder.frameDuration(tokenLength: $0) * 100).rounded() }
        #expect(audible == [137, 237])
    }

    /// Holds NUT-37.
    @Test func decodingCleanSymbolsReturnsTheTokenWithNoCorrections() throws {
        for length in NUTFrameCoding.tokenLengths {
            let token = (0..<length).map { UInt8(($0 * 37 + length) & 0xFF) }
            var symbols = try NUTFrameCoding.symbols(token: token)
            symbols += [Int](repeating: 0, count: NUTFrameCoding.maximumSymbolCount - symbols.count)
            let decoded = NUTFrameCoding.decode(
                symbols: symbols, reliability: [Float](repeating: 2, count: symbols.count))
            #expect(decoded == .init(token: token, correctedBytes: 0))
        }
    }

    /// Holds NUT-37.
    @Test func aWrongHeaderStillDecodesThroughTheOtherLengths() throws {
        let token: [UInt8] = Hex.decode("0102030405060708")!
        var symbols = try NUTFrameCoding.symbols(token: token)
        symbols[0] = 0b1111  // version 3, length code 3: not trusted
        symbols += [Int](repeating: 0, count: NUTFrameCoding.maximumSymbolCount - symbols.count)
        let decoded = NUTFrameCoding.decode(symbols: symbols, reliability: [Float](repeating: 2, count: symbols.count))
        #expect(decoded?.token == token)
    }

    /// Holds NUT-30.
    @Test func threeWrongNibblesInUnreliableBytesAreRecoveredWithErasures() throws {
        let token: [UInt8] = Hex.decode("a1b2c3d4e5f6")!
        var symbols = try NUTFrameCoding.symbols(token: token)
        var reliability = [Float](repeating: 10, count: symbols.count)
        // three bytes hit (symbols 1, 5, 9 are the high nibbles of bytes 0, 2, 4): beyond
        // errors-only (t = 2), within 3 erasures when those bytes are the least reliable.
        for s in [1, 5, 9] {
            symbols[s] ^= 0x9
            reliability[s] = 1.01
        }
        let decoded = NUTFrameCoding.decode(symbols: symbols, reliability: reliability, tokenLength: 6)
        #expect(decoded == .init(token: token, correctedBytes: 3))
        // with uninformative reliabilities the same word is not recovered (or not as this token)
        let blind = NUTFrameCoding.decode(
            symbols: symbols, reliability: [Float](repeating: 10, count: symbols.count), tokenLength: 6)
        #expect(blind?.token != token)
    }
}
