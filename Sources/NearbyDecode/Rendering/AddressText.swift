import NearbyCapture
import NearbyJSON

/// A device address as output text: `aa:bb:cc:dd:ee:ff`, lower case (Core Vol 6 Part B
/// §1.3 writes the most significant byte first).
public enum AddressText {
    /// The text's length, bytes.
    public static let length = 17

    /// Writes the address's 17 bytes at `out`; returns 17.
    @inline(__always)
    package static func write(_ address: BluetoothAddress, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let value = address.rawValue
        @inline(__always) func pair(_ k: Int) {
            JSONWriter.writeHex(UInt8(truncatingIfNeeded: value &>> UInt64(40 - 8 * k)), to: out + 3 * k)
        }
        pair(0)
        pair(1)
        pair(2)
        pair(3)
        pair(4)
        pair(5)
        let colon = UInt8(ascii: ":")
        (out[2], out[5], out[8], out[11], out[14]) = (colon, colon, colon, colon, colon)
        return length
    }
}
