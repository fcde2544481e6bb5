import NearbyBytes
import Testing

@testable import NearbyAudio

@Suite struct ReedSolomonCodeTests {
    /// Holds NUT-28.
    @Test func generatorHasRootsAlphaZeroToThree() {
        // g(x) = (x+1)(x+α)(x+α²)(x+α³): evaluate at each root, highest power first.
        for j in 0..<4 {
            var s: UInt8 = 0
            for c in ReedSolomonCode.generator { s = GaloisField256.multiply(s, GaloisField256.power(j)) ^ c }
            #expect(s == 0)
        }
        #expect(ReedSolomonCode.generator.count == 5)
    }

    @Test func fieldTablesAreConsistent() {
        #expect(GaloisField256.power(0) == 1)
        #expect(GaloisField256.power(8) == 0x1D)  // α⁸ = x⁴+x³+x²+1
        #expect(GaloisField256.power(255) == 1)
        for a in 1...255 {
            let x = UInt8(a)
            #expect(GaloisField256.multiply(x, GaloisField256.inverse(x)) == 1)
        }
    }

    /// Every pattern within the code's power (2e + v ≤ 4) is corrected, for a sample of
    /// words, lengths and positions drawn from a fixed generator.
    /// Holds NUT-28.
    @Test(arguments: [(2, 0), (1, 0), (0, 4), (1, 2), (0, 3), (1, 1), (0, 1)])
    func correctsErrorsAndErasuresWithinTheBound(errors: Int, erasures: Int) {
        var seed: UInt64 = 0x5EED + UInt64(errors * 10 + erasures)
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for trial in 0..<200 {
            let k = [8, 10, 14, 18, 40][trial % 5]
            let message = (0..<k).map { _ in UInt8(next(256)) }
            let codeword = ReedSolomonCode.encode(message)
            var positions: [Int] = []
            while positions.count < errors + erasures {
                let p = next(codeword.count)
                if !positions.contains(p) { positions.append(p) }
            }
            var received = codeword
            for p in positions { received[p] ^= UInt8(1 + next(255)) }
            let erased = Array(positions.suffix(erasures))
            let correction = ReedSolomonCode.decode(received, erasures: erased)
            #expect(correction?.codeword == codeword, "trial \(trial): \(errors) errors, erasures at \(erased)")
            #expect(correction?.changedBytes == errors + erasures)
        }
    }

    /// Holds NUT-30.
    @Test func threeErrorsAreNeverMistakenForTheSentCodeword() {
        let codeword = ReedSolomonCode.encode(Hex.decode("000102030405060708")!)
        var received = codeword
        received[0] ^= 0x11
        received[4] ^= 0x22
        received[9] ^= 0x33
        let correction = ReedSolomonCode.decode(received)
        #expect(correction?.codeword != codeword)
        if let correction { #expect(ReedSolomonCode.syndromes(correction.codeword).allSatisfy { $0 == 0 }) }
    }

    @Test func badErasureListsAreRefusedNotTrapped() {
        let codeword = ReedSolomonCode.encode([1, 2, 3, 4, 5, 6])
        #expect(ReedSolomonCode.decode(codeword, erasures: [0, 1, 2, 3, 4]) == nil)
        #expect(ReedSolomonCode.decode(codeword, erasures: [-1]) == nil)
        #expect(ReedSolomonCode.decode(codeword, erasures: [codeword.count]) == nil)
        #expect(ReedSolomonCode.decode(codeword, erasures: [2, 2]) == nil)
        #expect(ReedSolomonCode.decode([1, 2, 3]) == nil)
    }
}
