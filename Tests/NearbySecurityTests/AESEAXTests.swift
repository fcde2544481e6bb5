import NearbyBytes
import NearbySecurity
import Testing

/// AES-EAX against the test vectors of the EAX paper (Bellare, Rogaway, Wagner 2004,
/// appendix): ETLM-CRYPTO-4.
@Suite struct AESEAXTests {
    // ETLM-CRYPTO-4.
    @Test(arguments: [
        (
            "233952dee4d5ed5f9b9c6d6ff80ff478", "62ec67f9c3a4a407fcb2a8c49031a8b3", "6bfb914fd07eae6b", "", "",
            "e037830e8389f27b025a2d6527e79d01"
        ),
        (
            "91945d3f4dcbee0bf45ef52255f095a4", "becaf043b0a23d843194ba972c66debd", "fa3bfd4806eb53fa", "f7fb", "19dd",
            "5c4c9331049d0bdab0277408f67967e5"
        ),
    ])
    func paperVectors(
        key: String, nonce: String, header: String, message: String, ciphertext: String, tag: String
    ) throws {
        let eax = try AESEAX(key: Hex.decode(key)!)
        let sealed = eax.seal(Hex.decode(message)!, nonce: Hex.decode(nonce)!, header: Hex.decode(header)!)
        #expect(Hex.encode(sealed.ciphertext) == ciphertext)
        #expect(Hex.encode(sealed.tag) == tag)
        #expect(
            try eax.open(sealed.ciphertext, tag: sealed.tag, nonce: Hex.decode(nonce)!, header: Hex.decode(header)!)
                == Hex.decode(message)!)
    }

    // ETLM-CRYPTO-4: the tag is OMAC^0(nonce) ⊕ H′ ⊕ OMAC^2(C), so a search over nonces may
    // compute the last two once; opened that way, the paper's vectors give the same plaintext,
    // and a nonce or tag that differs gives none.
    @Test func openingWithTheNonceFreeTagComputedOnceAgreesWithThePaper() throws {
        let eax = try AESEAX(key: Hex.decode("91945d3f4dcbee0bf45ef52255f095a4")!)
        let nonce = Hex.decode("becaf043b0a23d843194ba972c66debd")!, header = Hex.decode("fa3bfd4806eb53fa")!
        let ciphertext = Hex.decode("19dd")!, tag = Hex.decode("5c4c9331049d0bdab0277408f67967e5")!
        let rest = eax.nonceFreeTag(ciphertext: ciphertext, header: header)
        #expect(eax.open(ciphertext, tag: tag, nonce: nonce, nonceFreeTag: rest) == [0xf7, 0xfb])
        #expect(eax.open(ciphertext, tag: Array(tag.prefix(2)), nonce: nonce, nonceFreeTag: rest) == [0xf7, 0xfb])
        var otherNonce = nonce
        otherNonce[0] ^= 1
        #expect(eax.open(ciphertext, tag: tag, nonce: otherNonce, nonceFreeTag: rest) == nil)
        var otherTag = tag
        otherTag[1] ^= 1
        #expect(eax.open(ciphertext, tag: otherTag, nonce: nonce, nonceFreeTag: rest) == nil)
        #expect(eax.open(ciphertext, tag: [], nonce: nonce, nonceFreeTag: rest) == nil)
    }

    // ETLM-CRYPTO-3: the 2-byte MIC is the tag's first two bytes.
    @Test func aTruncatedTagIsThePrefixOfTheFullOne() throws {
        let eax = try AESEAX(key: Hex.decode("91945d3f4dcbee0bf45ef52255f095a4")!)
        let sealed = eax.seal(
            [0xf7, 0xfb], nonce: Hex.decode("becaf043b0a23d843194ba972c66debd")!,
            header: Hex.decode("fa3bfd4806eb53fa")!, tagLength: 2)
        #expect(Hex.encode(sealed.tag) == "5c4c")
    }

    // ETLM-CRYPTO-4: the counter increments over the whole block.
    @Test func aLongMessageRoundTripsAcrossManyCounterBlocks() throws {
        let eax = try AESEAX(key: [UInt8](repeating: 0x42, count: 16))
        // 100 bytes span 7 counter blocks.
        let message = (0..<100).map { UInt8($0) }
        let sealed = eax.seal(message, nonce: [1, 2, 3], header: [9])
        #expect(sealed.ciphertext != message)
        #expect(try eax.open(sealed.ciphertext, tag: sealed.tag, nonce: [1, 2, 3], header: [9]) == message)
    }

    // ETLM-CRYPTO-5, ETLM-CRYPTO-8.
    @Test func anyChangedByteFailsAuthentication() throws {
        let eax = try AESEAX(key: Hex.decode("91945d3f4dcbee0bf45ef52255f095a4")!)
        let nonce = Hex.decode("becaf043b0a23d843194ba972c66debd")!, header = Hex.decode("fa3bfd4806eb53fa")!
        let sealed = eax.seal([0xf7, 0xfb], nonce: nonce, header: header)
        var c = sealed.ciphertext
        c[1] ^= 1
        #expect(throws: SecurityError.self) { try eax.open(c, tag: sealed.tag, nonce: nonce, header: header) }
        var t = sealed.tag
        t[15] ^= 0x80
        #expect(
            throws: SecurityError(.micMismatch, "tag \(Hex.encode(t)) received, \(Hex.encode(sealed.tag)) computed")
        ) {
            try eax.open(sealed.ciphertext, tag: t, nonce: nonce, header: header)
        }
        #expect(throws: SecurityError.self) {
            try eax.open(sealed.ciphertext, tag: sealed.tag, nonce: nonce, header: [0xfa])
        }
        #expect(throws: SecurityError(.frameLength, "an EAX tag has 1 to 16 bytes, found 0")) {
            try eax.open(sealed.ciphertext, tag: [], nonce: nonce, header: header)
        }
    }
}
