/// Arithmetic in GF(2⁸) built on the primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D)
/// with α = 2, the field of NUT v1's Reed–Solomon code (NUT-28).
///
/// Elements are bytes; addition is XOR. Multiplication and division go through log and
/// antilog tables (the antilog table is doubled so that a sum of two logs needs no modulo).
public enum GaloisField256 {
    /// `exponent[i]` = αⁱ for i in 0..<510 (period 255).
    static let exponent: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var x = 1
        for i in 0..<255 {
            table[i] = UInt8(x)
            table[i + 255] = UInt8(x)
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
        }
        return table
    }()

    /// `logarithm[x]` = i with αⁱ = x, for x ≠ 0 (`logarithm[0]` is unused).
    static let logarithm: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exponent[i])] = i }
        return table
    }()

    /// αⁱ for any integer i (negative exponents allowed).
    @inline(__always)
    public static func power(_ i: Int) -> UInt8 {
        let r = i % 255
        return exponent[r < 0 ? r + 255 : r]
    }

    @inline(__always)
    public static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exponent[logarithm[Int(a)] + logarithm[Int(b)]]
    }

    /// a / b; `b` must not be 0.
    @inline(__always)
    public static func divide(_ a: UInt8, _ b: UInt8) -> UInt8 {
        precondition(b != 0, "division by zero in GF(256)")
        if a == 0 { return 0 }
        return exponent[logarithm[Int(a)] + 255 - logarithm[Int(b)]]
    }

    @inline(__always)
    public static func inverse(_ a: UInt8) -> UInt8 { divide(1, a) }
}
