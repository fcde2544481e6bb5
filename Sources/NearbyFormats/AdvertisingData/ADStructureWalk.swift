/// The AD structures of AD data as the bytes lie (AD-1 to AD-3), for renderers that show every
/// structure rather than the beacons: type and payload, in order, up to a length octet of 0
/// (AD-2) or a structure that overruns the data (AD-3).
public enum ADStructureWalk {
    /// Calls `body` with each structure's AD type and payload (the octets after the type).
    @inlinable
    package static func forEach(
        in data: UnsafeBufferPointer<UInt8>, _ body: (UInt8, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var i = 0
        while i < data.count {
            let length = Int(data[i])
            guard length > 0, i + 1 + length <= data.count else { return }
            body(data[i + 1], UnsafeBufferPointer(rebasing: data[(i + 2)..<(i + 1 + length)]))
            i += 1 + length
        }
    }
}
