/// A message, after GNS `GNSMessage` / Android `Message` (ENGINE-V1, ENGINE-R4): a namespace, a
/// type of at most 32 characters and content of at most 102,400 bytes. Two messages are the
/// same message, for found/lost, when namespace, type and content are equal byte for byte
/// (ENGINE-R4): namespace and type compare and hash by their UTF-8 code units, so
/// strings that Unicode calls canonically equivalent ("café" precomposed and decomposed), which
/// Swift's `String ==` merges, are different messages.
public struct Message: Hashable, Sendable, Comparable {
    /// `Message.MAX_TYPE_LENGTH`, counted as Java counts `String.length()` (UTF-16 units).
    public static let maximumTypeLength = 32
    /// `Message.MAX_CONTENT_SIZE_BYTES`.
    public static let maximumContentBytes = 102_400
    /// `MESSAGE_NAMESPACE_RESERVED`: the namespace of beacon-ID messages.
    public static let reservedNamespace = "__reserved_namespace"
    /// `MESSAGE_TYPE_EDDYSTONE_UID`: content is the 16-byte namespace + instance.
    public static let eddystoneUIDType = "__eddystone_uid"
    /// `MESSAGE_TYPE_I_BEACON_ID`: content is the 20-byte UUID + major + minor.
    public static let iBeaconIDType = "__i_beacon_id"

    public var namespace: String
    public var type: String
    public var content: [UInt8]

    public init(namespace: String, type: String, content: [UInt8]) {
        self.namespace = namespace
        self.type = type
        self.content = content
    }

    /// Why this message breaks the API's limits, or nil when it is valid.
    public var violation: String? {
        if type.utf16.count > Self.maximumTypeLength {
            return
                "type has \(type.utf16.count) characters; at most \(Self.maximumTypeLength) are allowed "
                + "(Message.MAX_TYPE_LENGTH)"
        }
        if content.count > Self.maximumContentBytes {
            return
                "content has \(content.count) bytes; at most \(Self.maximumContentBytes) are allowed "
                + "(Message.MAX_CONTENT_SIZE_BYTES)"
        }
        return nil
    }

    public static func == (a: Message, b: Message) -> Bool {
        a.content == b.content && a.type.utf8.elementsEqual(b.type.utf8)
            && a.namespace.utf8.elementsEqual(b.namespace.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(content)
        Self.hashUTF8(namespace, into: &hasher)
        Self.hashUTF8(type, into: &hasher)
    }

    /// Hashes a string's UTF-8 code units and their count (not its grapheme clusters, as
    /// `String.hash(into:)` does).
    static func hashUTF8(_ s: String, into hasher: inout Hasher) {
        hasher.combine(s.utf8.count)
        for b in s.utf8 { hasher.combine(b) }
    }

    /// The order of messages among events at the same instant: namespace, then type (both by
    /// UTF-8 bytes), then content bytes.
    public static func < (a: Message, b: Message) -> Bool {
        if !a.namespace.utf8.elementsEqual(b.namespace.utf8) {
            return a.namespace.utf8.lexicographicallyPrecedes(b.namespace.utf8)
        }
        if !a.type.utf8.elementsEqual(b.type.utf8) { return a.type.utf8.lexicographicallyPrecedes(b.type.utf8) }
        return a.content.lexicographicallyPrecedes(b.content)
    }
}
