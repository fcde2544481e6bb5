import NearbyJSON

/// The names of an assigned-numbers table as JSON strings (quoted, escaped), by number:
/// what an AD entry writes for a company or a UUID, copied into a run (`JSONRun.bytes`)
/// without a hash or an escape scan per advertisement.
final class JSONNameTable: @unchecked Sendable {
    /// The quoted names, one after another (allocated once and never freed: the tables live
    /// as long as the program).
    let text: UnsafeBufferPointer<UInt8>
    /// For each number 0…65535: the start of its name in `text` (upper 22 bits) and its
    /// length (lower 10), or 0 when the number has no name.
    let places: [UInt32]
    /// The longest quoted name, bytes.
    let longest: Int

    init(_ names: [UInt16: String]) {
        var text: [UInt8] = []
        var places = [UInt32](repeating: 0, count: 1 << 16)
        var longest = 0
        for (number, name) in names.sorted(by: { $0.key < $1.key }) {
            let quoted = Array(JSONValue.string(name).serialized.utf8.prefix(1023))
            places[Int(number)] = UInt32(text.count) << 10 | UInt32(quoted.count)
            text += quoted
            longest = max(longest, quoted.count)
        }
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, text.count))
        _ = storage.initialize(from: text)
        self.text = UnsafeBufferPointer(storage)
        self.places = places
        self.longest = longest
    }

    /// Calls `body` with the quoted name of `number`, or nil when it has none.
    @inline(__always)
    func withName<R>(_ number: UInt16, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        let place = places[Int(number)]
        guard place != 0 else { return body(nil) }
        return body(UnsafeBufferPointer(rebasing: text[Int(place >> 10)..<Int(place >> 10 + place & 1023)]))
    }
}
