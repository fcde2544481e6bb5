import NearbyBytes
import Testing

@Suite struct StaticNameTests {
    @Test func namesAreEqualExactlyWhenTheirTextIs() {
        let a: StaticName = "ext-adv-report"
        #expect(a == "ext-adv-report")
        #expect(a != "ext-adv-repor")
        #expect(a != "ext-adv-reportx")
        #expect(a != "EXT-ADV-REPORT")
        let empty: StaticName = ""
        #expect(empty == "")
        #expect(empty != a)
    }

    @Test func aSingleScalarLiteralComparesAndPrintsLikeAnyOther() {
        // A one-scalar literal may be stored as a scalar rather than as a pointer.
        let x: StaticName = "é"
        #expect(x == "é")
        #expect(x != "e")
        #expect(x.description == "é")
    }

    @Test func aNameLendsAndPrintsItsWholeTextWhateverItsLength() {
        let names: [(StaticName, String)] = [
            ("", ""), ("x", "x"), ("ll", "ll"), ("hci-ext-adv-report", "hci-ext-adv-report"),
            (
                "a name of more than sixty-four bytes, which is longer than any code",
                "a name of more than sixty-four bytes, which is longer than any code"
            ),
        ]
        for (name, text) in names {
            #expect(name.withUTF8 { Array($0) } == Array(text.utf8), "\(text)")
            #expect(name.description == text)
        }
    }

    @Test func equalNamesHashAlikeAndCodeSpacesPrintTheirText() {
        let names: Set<StaticName> = ["ad", "ad", "eddystone", "ll"]
        #expect(names.count == 3)
        #expect(names.contains("eddystone"))
        #expect(DecodeError.Layer.adStructure.description == "ad")
        #expect(DecodeError(.eddystone, .truncated, at: 3, "x").key == "eddystone/truncated")
        #expect(Set([DecodeError.Layer.adStructure, DecodeError.Layer(rawValue: "ad")]).count == 1)
    }
}
