import NearbyJSON

/// UTC calendar text for microsecond Unix times, without Foundation or a time zone
/// database (days-from-civil algorithm of H. Hinnant, proleptic Gregorian calendar).
public enum CivilTime {
    /// `YYYY-MM-DDThh:mm:ss.ffffffZ`.
    public static func iso8601(micros: Int64) -> String {
        String(unsafeUninitializedCapacity: maximumLength) { write(micros: micros, to: $0.baseAddress!) }
    }

    /// The longest text `write` gives (a year of 13 digits and a sign).
    public static let maximumLength = 40

    /// Writes `YYYY-MM-DDThh:mm:ss.ffffffZ` (27 bytes for years 0…9999) at `out`; returns
    /// the number of bytes, at most `maximumLength`.
    package static func write(micros: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var cache = DateCache()
        return write(micros: micros, to: out, cache: &cache)
    }

    /// The date text (`YYYY-MM-DD`) of the day last written, so that times of the same day
    /// (every line of a capture, as a rule) skip the calendar arithmetic.
    public struct DateCache: Sendable {
        var day = Int64.min
        var text: (UInt64, UInt64) = (0, 0)
        var length = 0

        public init() {}
    }

    /// `write(micros:to:)`, the date taken from `cache` when it is of the same day and kept
    /// there otherwise.
    package static func write(micros: Int64, to out: UnsafeMutablePointer<UInt8>, cache: inout DateCache) -> Int {
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        var secs = seconds
        var frac = fraction
        if frac < 0 {
            frac += 1_000_000
            secs -= 1
        }
        var days = secs / 86_400
        var rem = secs % 86_400
        if rem < 0 {
            rem += 86_400
            days -= 1
        }
        var n: Int
        if days == cache.day {
            n = cache.length
            withUnsafeBytes(of: cache.text) {
                UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: n)
            }
        } else {
            n = writeDate(days: days, to: out)
            if n <= MemoryLayout.size(ofValue: cache.text) {
                cache.day = days
                cache.length = n
                withUnsafeMutableBytes(of: &cache.text) { $0.baseAddress!.copyMemory(from: out, byteCount: n) }
            }
        }
        let p = out + n
        p[0] = UInt8(ascii: "T")
        digits(rem / 3600, 2, p + 1)
        p[3] = UInt8(ascii: ":")
        digits(rem % 3600 / 60, 2, p + 4)
        p[6] = UInt8(ascii: ":")
        digits(rem % 60, 2, p + 7)
        p[9] = UInt8(ascii: ".")
        digits(frac, 6, p + 10)
        p[16] = UInt8(ascii: "Z")
        return n + 17
    }

    /// Writes `YYYY-MM-DD` of the day `days` after 1970-01-01 at `out`; returns the number of
    /// bytes (10 for years 0…9999, at most `maximumLength` − 17).
    private static func writeDate(days: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        var n = 0
        if (0...9999).contains(year) {
            digits(year, 4, out)
            n = 4
        } else {
            // Zeros in front to four characters; a year before 0 keeps its sign after the
            // zeros, as `String(year)` padded would.
            let text = Array(String(year).utf8)
            for _ in 0..<max(0, 4 - text.count) {
                out[n] = UInt8(ascii: "0")
                n += 1
            }
            for byte in text.prefix(maximumLength - 24) {
                out[n] = byte
                n += 1
            }
        }
        let p = out + n
        p[0] = UInt8(ascii: "-")
        digits(month, 2, p + 1)
        p[3] = UInt8(ascii: "-")
        digits(day, 2, p + 4)
        return n + 6
    }

    /// Writes the last `width` (an even number) decimal digits of `v` (≥ 0) at `out`.
    @inline(__always)
    private static func digits(_ v: Int64, _ width: Int, _ out: UnsafeMutablePointer<UInt8>) {
        var rest = v
        var i = width
        while i > 0 {
            i -= 2
            JSONWriter.writeTwoDigits(Int(truncatingIfNeeded: rest % 100), to: out + i)
            rest /= 100
        }
    }
}
