import ArgumentParser
import NearbyBytes

/// Reads a hex option, naming it in the error: a key or EID that is not hex of its length is
/// bad input (exit status 1), not a usage error.
func hexOption(_ text: String, _ name: String, lengths: [Int]) throws -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        printError("error: \(name): \"\(text)\" is not hex (an even number of 0-9 a-f digits).")
        throw ExitCode(1)
    }
    guard lengths.contains(bytes.count) else {
        printError(
            "error: \(name): \(bytes.count) bytes; expected \(lengths.map(String.init).joined(separator: " or ")).")
        throw ExitCode(1)
    }
    return bytes
}
