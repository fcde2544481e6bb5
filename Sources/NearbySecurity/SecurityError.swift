/// A failure of the Eddystone security layer: a key, exponent or frame that cannot be used,
/// or an authentication failure. `code` is an open code space; `reason` says what was
/// expected and what was found.
public struct SecurityError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Code
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "security/\(code.rawValue): \(reason)" }

    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A key or nonce of the wrong number of bytes.
        public static let keyLength = Code(rawValue: "key-length")
        /// A rotation exponent outside 0…15.
        public static let exponentRange = Code(rawValue: "exponent-range")
        /// X25519 gave the all-zero shared secret (a low-order public key): no identity key.
        public static let zeroSharedSecret = Code(rawValue: "zero-shared-secret")
        /// A public key that X25519 refuses.
        public static let invalidPublicKey = Code(rawValue: "invalid-public-key")
        /// The eTLM's MIC does not match the one computed with the key and nonce tried.
        public static let micMismatch = Code(rawValue: "mic-mismatch")
        /// A frame or block of the wrong length.
        public static let frameLength = Code(rawValue: "frame-length")
    }
}
