import NearbyAudio
import Testing

@Suite struct SequenceTests {
    private func bits(_ chips: ArraySlice<Float>) -> String { chips.map { $0 > 0 ? "0" : "1" }.joined() }

    /// Holds NUT-10 and NUT-11.
    @Test func m15IsTheSpecifiedSequence() {
        #expect(bits(NUTSequences.m15[...]) == "000100110101111")
    }

    /// Holds NUT-10 and NUT-12.
    @Test func longScramblerStartsAsSpecifiedAndHasPeriod2047() {
        #expect(
            bits(NUTSequences.longScrambler.prefix(64))
                == "0000000000100000000101000000100010000101010100100000001101000001")
        // an m-sequence of degree 11 has 1024 ones and 1023 zeros in one period
        #expect(NUTSequences.longScrambler.filter { $0 < 0 }.count == 1024)
        var register = FibonacciLFSR(degree: 11, exponents: [11, 9])
        let twoPeriods = register.bits(4094)
        #expect(Array(twoPeriods[0..<2047]) == Array(twoPeriods[2047...]))
    }

    /// Holds NUT-13 and NUT-16.
    @Test func preambleIsBarkerCoveredM15() {
        #expect(NUTSequences.preamble.count == 195)
        #expect(bits(NUTSequences.preamble[75..<90]) == "111011001010000")  // B[5] = − inverts m15
        #expect(bits(NUTSequences.preamble[0..<15]) == "000100110101111")
    }

    /// Holds NUT-14 and NUT-17.
    @Test func symbolCodesAreOrthogonalWithinASymbol() {
        for i in [0, 7, 31] {
            for a in 0..<16 {
                for b in 0..<16 {
                    let dot = (0..<64).reduce(Float(0)) {
                        $0 + NUTSequences.symbolChip(index: i, value: a, chip: $1)
                            * NUTSequences.symbolChip(index: i, value: b, chip: $1)
                    }
                    #expect(dot == (a == b ? 64 : 0))
                }
            }
        }
    }
}
