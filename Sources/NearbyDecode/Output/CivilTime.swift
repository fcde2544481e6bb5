/// UTC calendar text for microsecond Unix times, without Foundation or a time zone
/// database (days-from-civil algorithm of H. Hinnant, proleptic Gregorian calendar).
public enum CivilTime {
    /// `YYYY-MM-DDThh:mm:ss.ffffffZ`.
    public static func iso8601(micros: Int64) -> String {
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
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ v: Int64, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        let date = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        let time = "\(pad(rem / 3600, 2)):\(pad(rem % 3600 / 60, 2)):\(pad(rem % 60, 2)).\(pad(frac, 6))"
        return date + "T" + time + "Z"
    }
}
