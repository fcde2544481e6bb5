import ArgumentParser
import NearbyDecode
import NearbyDecodeSession

/// `--format json|table`: how `decode` and `replay` print. The option takes one value: given
/// twice, it is a usage error (exit 64) naming it, not the last one silently.
struct FormatOption: ParsableArguments {
    @Option(
        name: .customLong("format"), parsing: .singleValue,
        help: ArgumentHelp(
            "Output format, given at most once: json (one object per line; the default) or table.",
            valueName: "format"))
    var given: [DecodeSession.OutputFormat] = []

    /// The format asked for; json when none was.
    var format: DecodeSession.OutputFormat { given.first ?? .json }

    func validate() throws {
        if given.count > 1 {
            let values = given.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--format takes one value; it was given \(given.count) times (\(values)).")
        }
    }
}
