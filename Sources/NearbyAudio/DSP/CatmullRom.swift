/// Catmull-Rom cubic interpolation between p1 (f = 0) and p2 (f = 1), with neighbours p0, p3.
@inline(__always)
func catmullRom(_ p0: Float, _ p1: Float, _ p2: Float, _ p3: Float, _ f: Float) -> Float {
    p1 + 0.5 * f * (p2 - p0 + f * (2 * p0 - 5 * p1 + 4 * p2 - p3 + f * (3 * (p1 - p2) + p3 - p0)))
}

extension ComplexHistory {
    /// The stream interpolated at fractional absolute position `position` (0 outside).
    @inline(__always)
    func interpolate(at position: Double) -> (re: Float, im: Float) {
        let i = Int(position.rounded(.down))
        let f = Float(position - Double(i))
        let a = value(i - 1), b = value(i), c = value(i + 1), d = value(i + 2)
        return (catmullRom(a.re, b.re, c.re, d.re, f), catmullRom(a.im, b.im, c.im, d.im, f))
    }
}
