/// The spreading sequences of NUT-I (NUT-11 to NUT-14), as chips (NUT-4): bit 0 → +1,
/// bit 1 → −1. They are normative exactly as generated (including G's initial run of zeros).
public enum NUTSequences {
    /// m15: x⁴ + x³ + 1, seed 1, 15 chips (bits 000100110101111).
    public static let m15: [Float] = chips(FibonacciLFSR(degree: 4, exponents: [4, 3]), count: 15)
    /// G: x¹¹ + x⁹ + 1, seed 1, one period of 2047 chips: the long scrambler of the symbols.
    public static let longScrambler: [Float] = chips(FibonacciLFSR(degree: 11, exponents: [11, 9]), count: 2047)
    /// Barker-13: + + + + + − − + + − + − +.
    public static let barker13: [Float] = [1, 1, 1, 1, 1, -1, -1, 1, 1, -1, 1, -1, 1]
    /// The 195-chip preamble: PREAMBLE[k] = B[k / 15] · m15[k mod 15].
    public static let preamble: [Float] = (0..<195).map { barker13[$0 / 15] * m15[$0 % 15] }

    /// Chips per symbol.
    public static let symbolChips = 64
    /// Chips in the preamble.
    public static let preambleChips = 195

    /// W64[r][k] = (−1)^popcount(r & k), Sylvester order.
    @inline(__always)
    public static func walsh(row: Int, chip: Int) -> Float { (row & chip).nonzeroBitCount & 1 == 0 ? 1 : -1 }

    /// Chip k (0…63) of symbol `index` carrying `value` (0…15): W64[4·value][k] · G[(64·index + k) mod 2047].
    @inline(__always)
    public static func symbolChip(index: Int, value: Int, chip: Int) -> Float {
        walsh(row: 4 * value, chip: chip) * longScrambler[(64 * index + chip) % 2047]
    }

    /// All chips of a frame: the preamble, then 64 chips per symbol.
    public static func frameChips(symbols: [Int]) -> [Float] {
        var chips = preamble
        chips.reserveCapacity(preambleChips + symbolChips * symbols.count)
        for (i, m) in symbols.enumerated() {
            for k in 0..<symbolChips { chips.append(symbolChip(index: i, value: m, chip: k)) }
        }
        return chips
    }

    private static func chips(_ register: FibonacciLFSR, count: Int) -> [Float] {
        var register = register
        return register.bits(count).map { $0 == 0 ? 1 : -1 }
    }
}
