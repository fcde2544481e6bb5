import Crypto
import CryptoExtras

/// An AES-128 key for single-block encryption (FIPS 197), the primitive under EID
/// computation (AES-128-ECB of one block) and AES-EAX. The block operation is
/// swift-crypto's `AES.permute` (BoringSSL).
public struct AES128: Sendable {
    public let keyBytes: [UInt8]
    let key: SymmetricKey

    /// - Throws: `keyLength` unless `keyBytes` has exactly 16 bytes.
    public init(_ keyBytes: [UInt8]) throws(SecurityError) {
        guard keyBytes.count == 16 else {
            throw SecurityError(.keyLength, "an AES-128 key has 16 bytes, found \(keyBytes.count)")
        }
        self.keyBytes = keyBytes
        key = SymmetricKey(data: keyBytes)
    }

    /// AES-128 encryption of one 16-byte block.
    public func encrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == 16, "an AES block has 16 bytes")
        var b = block
        // Cannot fail: the key and the block have been checked.
        try! AES.permute(&b, key: key)
        return b
    }
}
