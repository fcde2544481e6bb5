/// The systematic Reed–Solomon code of NUT v1: RS(255, 251) over GF(2⁸) (0x11D, α = 2),
/// generator ∏_{j=0..3}(x − αʲ) (first consecutive root α⁰), shortened to n = k + 4 bytes
/// (NUT-28, NUT-29). It corrects e byte errors and v erasures when 2e + v ≤ 4.
///
/// A codeword is a byte array read as a polynomial with its first byte as the highest power
/// (the convention of the Python `reedsolo` package, which the tests cross-check against).
public enum ReedSolomonCode {
    /// Parity bytes per codeword (2t).
    public static let parityCount = 4

    /// The generator polynomial, highest power first: g[0] = 1.
    static let generator: [UInt8] = {
        var g: [UInt8] = [1]
        for j in 0..<parityCount {
            // g(x) · (x + αʲ)
            let root = GaloisField256.power(j)
            var next = g + [0]
            for i in 0..<g.count { next[i + 1] ^= GaloisField256.multiply(g[i], root) }
            g = next
        }
        return g
    }()

    /// The codeword for `message`: the message followed by its 4 parity bytes.
    /// `message.count` must be at most 251.
    public static func encode(_ message: [UInt8]) -> [UInt8] {
        precondition(message.count <= 255 - parityCount, "a Reed–Solomon message holds at most 251 bytes")
        var parity = [UInt8](repeating: 0, count: parityCount)
        for byte in message {
            let feedback = byte ^ parity[0]
            for i in 0..<(parityCount - 1) {
                parity[i] = parity[i + 1] ^ GaloisField256.multiply(feedback, generator[i + 1])
            }
            parity[parityCount - 1] = GaloisField256.multiply(feedback, generator[parityCount])
        }
        return message + parity
    }

    /// The outcome of a successful decode.
    public struct Correction: Sendable, Equatable {
        /// The corrected codeword (message and parity).
        public var codeword: [UInt8]
        /// How many bytes differ from the received word (erased bytes included when changed).
        public var changedBytes: Int
    }

    /// Corrects `received` (n ≤ 255 bytes) given the positions of `erasures` (byte indexes,
    /// each in 0..<n, no duplicates). Returns nil when the word cannot be corrected: more
    /// than 4 erasures, 2e + v > 4, a locator whose roots fall outside the shortened word, or a
    /// result that is not a codeword. Errors-and-erasures Berlekamp–Massey (Blahut's
    /// initialisation with the erasure locator), Chien search and Forney's formula.
    public static func decode(_ received: [UInt8], erasures: [Int] = []) -> Correction? {
        let n = received.count
        guard n > parityCount, n <= 255, erasures.count <= parityCount else { return nil }
        guard erasures.allSatisfy({ $0 >= 0 && $0 < n }), Set(erasures).count == erasures.count else { return nil }
        let syndromes = self.syndromes(received)
        if syndromes.allSatisfy({ $0 == 0 }) {
            return Correction(codeword: received, changedBytes: 0)
        }
        // Erasure locator Γ(x) = ∏ (1 + Xᵢ x), lowest power first, Xᵢ = α^(n−1−pᵢ).
        var gamma: [UInt8] = [1]
        for position in erasures {
            let x = GaloisField256.power(n - 1 - position)
            var next = gamma + [0]
            for i in 0..<gamma.count { next[i + 1] ^= GaloisField256.multiply(gamma[i], x) }
            gamma = next
        }
        let v = erasures.count
        var lambda = gamma
        var b = gamma
        var degree = v
        if v < parityCount {
            for r in (v + 1)...parityCount {
                var delta: UInt8 = 0
                for j in 0..<min(r, lambda.count) {
                    delta ^= GaloisField256.multiply(lambda[j], syndromes[r - 1 - j])
                }
                let shiftedB = [0] + b
                if delta == 0 {
                    b = shiftedB
                    continue
                }
                var t = lambda
                if t.count < shiftedB.count { t += [UInt8](repeating: 0, count: shiftedB.count - t.count) }
                for i in 0..<shiftedB.count { t[i] ^= GaloisField256.multiply(delta, shiftedB[i]) }
                if 2 * degree <= r + v - 1 {
                    let inverse = GaloisField256.inverse(delta)
                    b = lambda.map { GaloisField256.multiply($0, inverse) }
                    degree = r + v - degree
                } else {
                    b = shiftedB
                }
                lambda = t
            }
        }
        while lambda.count > 1, lambda[lambda.count - 1] == 0 { lambda.removeLast() }
        guard lambda.count - 1 == degree, 2 * (degree - v) + v <= parityCount else { return nil }
        // Error evaluator Ω(x) = S(x) Λ(x) mod x⁴.
        var omega = [UInt8](repeating: 0, count: parityCount)
        for i in 0..<parityCount {
            for j in 0...i where j < lambda.count {
                omega[i] ^= GaloisField256.multiply(lambda[j], syndromes[i - j])
            }
        }
        // Chien search over the positions of the shortened word, then Forney.
        var corrected = received
        var roots = 0
        for position in 0..<n {
            let exponent = n - 1 - position
            let xInverse = GaloisField256.power(-exponent)
            guard evaluate(lambda, at: xInverse) == 0 else { continue }
            roots += 1
            var derivative: UInt8 = 0
            var power: UInt8 = 1
            let xInverseSquared = GaloisField256.multiply(xInverse, xInverse)
            for j in stride(from: 1, to: lambda.count, by: 2) {
                derivative ^= GaloisField256.multiply(lambda[j], power)
                power = GaloisField256.multiply(power, xInverseSquared)
            }
            guard derivative != 0 else { return nil }
            let magnitude = GaloisField256.multiply(
                GaloisField256.power(exponent),
                GaloisField256.divide(evaluate(omega, at: xInverse), derivative)
            )
            corrected[position] ^= magnitude
        }
        // NUT-30: a result is taken only when it is a codeword.
        guard roots == degree, self.syndromes(corrected).allSatisfy({ $0 == 0 }) else { return nil }
        let changed = zip(received, corrected).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
        return Correction(codeword: corrected, changedBytes: changed)
    }

    /// S_j = r(αʲ), j = 0..3.
    static func syndromes(_ word: [UInt8]) -> [UInt8] {
        (0..<parityCount).map { j in
            let root = GaloisField256.power(j)
            var s: UInt8 = 0
            for byte in word { s = GaloisField256.multiply(s, root) ^ byte }
            return s
        }
    }

    /// p(x) for p given lowest power first.
    static func evaluate(_ p: [UInt8], at x: UInt8) -> UInt8 {
        var s: UInt8 = 0
        for c in p.reversed() { s = GaloisField256.multiply(s, x) ^ c }
        return s
    }
}
