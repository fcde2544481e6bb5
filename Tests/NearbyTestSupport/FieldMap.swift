import NearbyBytes

/// A structure's field layout, written by hand from its specification, that says what a
/// strict decoder must report when the input is cut after `n` bytes: the field the cut
/// falls in (or that starts at the cut) decides. A fixed-size field gives `truncated` at
/// its start; the contents of a length-prefixed field give `length-overrun` at its length
/// byte. Drip-feed tests compare every strict prefix against this map.
public struct FieldMap: Sendable {
    public enum Kind: Sendable, Equatable {
        case fixed
        case declared(lengthAt: Int)
    }

    public struct Field: Sendable {
        public var start: Int
        public var length: Int
        public var kind: Kind
    }

    public private(set) var fields: [Field] = []
    public private(set) var end: Int

    public init(start: Int = 0) { end = start }

    public mutating func fixed(_ length: Int) {
        fields.append(Field(start: end, length: length, kind: .fixed))
        end += length
    }

    /// A field of `length` bytes whose length was given by the byte at `lengthAt`.
    public mutating func declared(_ length: Int, lengthAt: Int) {
        fields.append(Field(start: end, length: length, kind: .declared(lengthAt: lengthAt)))
        end += length
    }

    /// `count` bytes given by a length byte just before them.
    public mutating func lengthPrefixed(_ count: Int) {
        let lengthAt = end
        fixed(1)
        declared(count, lengthAt: lengthAt)
    }

    /// The code and offset expected for input cut to `n` bytes (n < end).
    public func expectedFailure(cutAt n: Int) -> (code: DecodeError.Code, offset: Int) {
        guard let f = fields.first(where: { $0.length > 0 && $0.start + $0.length > n }) else {
            fatalError("cut at \(n) is not inside the map (end \(end))")
        }
        switch f.kind {
        case .fixed: return (.truncated, f.start)
        case .declared(let lengthAt): return (.lengthOverrun, lengthAt)
        }
    }
}
