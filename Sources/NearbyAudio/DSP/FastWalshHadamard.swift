/// In-place fast Walsh–Hadamard transform of 16 complex values (Sylvester order:
/// X[r] = Σₖ (−1)^popcount(r & k) x[k]).
@inline(__always)
func fastWalshHadamard16(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>) {
    var h = 1
    while h < 16 {
        var i = 0
        while i < 16 {
            for j in i..<(i + h) {
                let ar = re[j], ai = im[j], br = re[j + h], bi = im[j + h]
                re[j] = ar + br
                im[j] = ai + bi
                re[j + h] = ar - br
                im[j + h] = ai - bi
            }
            i += 2 * h
        }
        h *= 2
    }
}
