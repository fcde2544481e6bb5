import Crypto
import CryptoExtras
import NearbyBytes

/// AES-EAX authenticated encryption (Bellare, Rogaway, Wagner, "The EAX Mode of Operation",
/// FSE 2004), the mode of encrypted Eddystone-TLM (ETLM-CRYPTO-3, ETLM-CRYPTO-4):
///
///     OMAC^t(M) = CMAC_K([t]₁₂₈ ‖ M)              (t = 0, 1, 2 as a 16-byte big-endian block)
///     N' = OMAC^0(nonce), H' = OMAC^1(header)
///     C  = CTR_K^{N'}(M)                          (the whole 128-bit block counts, big-endian)
///     T  = N' ⊕ H' ⊕ OMAC^2(C), truncated to the tag length
///
/// CMAC (NIST SP 800-38B) is swift-crypto's `AES.CMAC`; the counter mode is built on the
/// AES block function, because EAX increments the whole 128-bit block.
public struct AESEAX: Sendable {
    public let cipher: AES128

    public init(key: [UInt8]) throws(SecurityError) {
        cipher = try AES128(key)
    }

    public init(cipher: AES128) {
        self.cipher = cipher
    }

    /// Encrypts `plaintext`; returns the ciphertext (same length) and the tag.
    /// - Parameter tagLength: 1…16 bytes (eTLM uses 2).
    public func seal(
        _ plaintext: [UInt8], nonce: [UInt8], header: [UInt8] = [], tagLength: Int = 16
    ) -> (ciphertext: [UInt8], tag: [UInt8]) {
        precondition((1...16).contains(tagLength), "an EAX tag has 1 to 16 bytes")
        let n = omac(0, nonce)
        let h = omac(1, header)
        let c = counterMode(plaintext, initialCounter: n)
        let m = omac(2, c)
        let tag = (0..<tagLength).map { n[$0] ^ h[$0] ^ m[$0] }
        return (c, tag)
    }

    /// The tag of `ciphertext` under `nonce` and `header`, `length` bytes.
    public func tag(ciphertext: [UInt8], nonce: [UInt8], header: [UInt8] = [], length: Int) -> [UInt8] {
        precondition((1...16).contains(length), "an EAX tag has 1 to 16 bytes")
        let n = omac(0, nonce), rest = nonceFreeTag(ciphertext: ciphertext, header: header)
        return (0..<length).map { n[$0] ^ rest[$0] }
    }

    /// H′ ⊕ OMAC^2(C), 16 bytes: the part of the tag that does not depend on the nonce
    /// (ETLM-CRYPTO-4). The tag is OMAC^0(nonce) ⊕ this, truncated.
    public func nonceFreeTag(ciphertext: [UInt8], header: [UInt8] = []) -> [UInt8] {
        let h = omac(1, header), m = omac(2, ciphertext)
        return (0..<16).map { h[$0] ^ m[$0] }
    }

    /// `open` for a search over nonces: `nonceFreeTag` is `nonceFreeTag(ciphertext:header:)`
    /// of this ciphertext and header, computed once for every nonce tried, so that a nonce
    /// costs one OMAC. The plaintext when `received` (1…16 bytes) matches, else nil.
    public func open(_ ciphertext: [UInt8], tag received: [UInt8], nonce: [UInt8], nonceFreeTag: [UInt8]) -> [UInt8]? {
        guard (1...16).contains(received.count), nonceFreeTag.count == 16 else { return nil }
        let n = omac(0, nonce)
        var difference: UInt8 = 0
        for i in 0..<received.count { difference |= n[i] ^ nonceFreeTag[i] ^ received[i] }
        guard difference == 0 else { return nil }
        return counterMode(ciphertext, initialCounter: n)
    }

    /// Verifies `tag` and decrypts. The tag is checked before any plaintext is returned.
    /// - Throws: `micMismatch` naming the tag received and the tag computed (ETLM-CRYPTO-5);
    ///   `frameLength` for a tag of fewer than 1 or more than 16 bytes (ETLM-CRYPTO-8).
    public func open(
        _ ciphertext: [UInt8], tag received: [UInt8], nonce: [UInt8], header: [UInt8] = []
    ) throws(SecurityError) -> [UInt8] {
        guard (1...16).contains(received.count) else {
            throw SecurityError(.frameLength, "an EAX tag has 1 to 16 bytes, found \(received.count)")
        }
        let rest = nonceFreeTag(ciphertext: ciphertext, header: header)
        if let plain = open(ciphertext, tag: received, nonce: nonce, nonceFreeTag: rest) { return plain }
        let computed = tag(ciphertext: ciphertext, nonce: nonce, header: header, length: received.count)
        throw SecurityError(.micMismatch, "tag \(Hex.encode(received)) received, \(Hex.encode(computed)) computed")
    }

    /// OMAC^t: CMAC over the tweak block [t] followed by `message` (ETLM-CRYPTO-4).
    func omac(_ t: UInt8, _ message: [UInt8]) -> [UInt8] {
        // Cannot fail: AES128 holds a 16-byte key.
        var mac = try! AES.CMAC(key: cipher.key)
        var block = [UInt8](repeating: 0, count: 16)
        block[15] = t
        block.append(contentsOf: message)
        mac.update(data: block)
        return mac.finalize().withUnsafeBytes { Array($0) }
    }

    func counterMode(_ input: [UInt8], initialCounter: [UInt8]) -> [UInt8] {
        var counter = initialCounter
        var out = input
        var i = 0
        while i < input.count {
            let stream = cipher.encrypt(block: counter)
            for j in 0..<min(16, input.count - i) { out[i + j] ^= stream[j] }
            i += 16
            // Increment the 128-bit big-endian counter (mod 2^128; ETLM-CRYPTO-4).
            var k = 15
            while k >= 0 {
                counter[k] &+= 1
                if counter[k] != 0 { break }
                k -= 1
            }
        }
        return out
    }
}
