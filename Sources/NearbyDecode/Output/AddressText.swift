import NearbyCapture
import NearbyJSON

/// A device address as output text: `aa:bb:cc:dd:ee:ff`, lower case (Core Vol 6 Part B
/// §1.3 writes the most significant byte first).
enum AddressText {
    /// The text's length, bytes.
    static let length = 17

    /// Writes the address's 17 bytes at `out`; returns 17.
    static func write(_ address: BluetoothAddress, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        for shift in stride(from: 40, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: address.rawValue >> UInt64(shift))
            JSONWriter.writeHex(byte, to: out + n)
            if shift > 0 { out[n + 2] = UInt8(ascii: ":") }
            n += 3
        }
        return length
    }
}
