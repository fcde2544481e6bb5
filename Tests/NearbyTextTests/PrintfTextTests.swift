import NearbyText
import Testing

/// `PrintfText` against what C's printf is specified to write (C17 §7.21.6.1) for the
/// conversions the package formats with.
@Suite struct PrintfTextTests {
    @Test func numbersAreWrittenAsPrintfWritesThem() {
        #expect(PrintfText.format("%02x", UInt8(0x0a)) == "0a")
        #expect(PrintfText.format("%02x", UInt8(0xff)) == "ff")
        #expect(PrintfText.format("%.6f", 1.5) == "1.500000")
        #expect(PrintfText.format("%11.6f", -2.25) == "  -2.250000")
        #expect(PrintfText.format("%6.1f dB", 24.44) == "  24.4 dB")
        #expect(PrintfText.format("%8.1f ppm", -3999.96) == " -4000.0 ppm")
        #expect(PrintfText.format("%.0f", 600.0) == "600")
        // An exact tie rounds to even (0.25 and 0.125 are exact in binary).
        #expect(PrintfText.format("%.1f", 0.25) == "0.2")
        #expect(PrintfText.format("%.2f", 0.125) == "0.12")
        #expect(PrintfText.format("%.1f", -0.04) == "-0.0")
    }

    @Test func textLongerThanTheFirstBufferIsWrittenWhole() {
        let long = PrintfText.format("%.60f", 1.0)
        #expect(long == "1." + String(repeating: "0", count: 60))
        #expect(PrintfText.format("%200.1f", 1.0).count == 200)
    }

    @Test func paddingFillsWithSpacesOrCuts() {
        #expect(PrintfText.padded("ab", to: 5) == "ab   ")
        #expect(PrintfText.padded("abcdef", to: 3) == "abc")
        #expect(PrintfText.padded("abc", to: 3) == "abc")
        #expect(PrintfText.padded("", to: 0) == "")
    }
}
