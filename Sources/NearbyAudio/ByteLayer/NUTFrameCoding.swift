/// The byte layer NUT-I and NUT-A share (NUT-25 to NUT-31): header nibble,
/// CRC-16/CCITT-FALSE, Reed–Solomon RS(L+6, L+2) and the nibble order of the symbols.
///
/// Header nibble h = (version << 2) | lengthCode, version 0, lengthCode 0…3 for tokens of
/// 6, 8, 12, 16 bytes. Codeword = token ‖ CRC (big-endian) ‖ 4 parity bytes, where the CRC
/// covers the byte 0x0h followed by the token. Symbols (values 0…15): h, then for each
/// codeword byte its high nibble, then its low nibble: N = 1 + 2(L + 6).
public enum NUTFrameCoding {
    /// Token lengths in bytes, indexed by the header's length code.
    public static let tokenLengths = [6, 8, 12, 16]
    /// The format version carried in the header's top two bits.
    public static let version = 0

    /// Symbols in a frame carrying a token of `tokenLength` bytes (header included).
    public static func symbolCount(tokenLength: Int) -> Int { 1 + 2 * (tokenLength + 2 + ReedSolomonCode.parityCount) }

    /// The most symbols any frame has (16-byte token): 45.
    public static let maximumSymbolCount = symbolCount(tokenLength: 16)

    /// The header nibble for a token of `tokenLength` bytes (NUT-25); other lengths are refused (NUT-26).
    public static func header(tokenLength: Int) throws(AudioTokenError) -> Int {
        guard let code = tokenLengths.firstIndex(of: tokenLength) else {
            throw AudioTokenError.unsupportedLength(tokenLength)
        }
        return version << 2 | code
    }

    /// The codeword: token ‖ CRC-16 ‖ Reed–Solomon parity (NUT-27, NUT-29).
    public static func codeword(token: [UInt8]) throws(AudioTokenError) -> [UInt8] {
        let h = try header(tokenLength: token.count)
        let crc = CRC16CCITT.checksum(CollectionOfOne(UInt8(h)) + token)
        return ReedSolomonCode.encode(token + [UInt8(crc >> 8), UInt8(crc & 0xFF)])
    }

    /// The frame's symbols, header first.
    public static func symbols(token: [UInt8]) throws(AudioTokenError) -> [Int] {
        let h = try header(tokenLength: token.count)
        var symbols = [h]
        for byte in try codeword(token: token) {
            symbols.append(Int(byte >> 4))
            symbols.append(Int(byte & 0x0F))
        }
        return symbols
    }

    /// A token recovered from demodulated symbols.
    public struct Decoded: Sendable, Equatable {
        public var token: [UInt8]
        /// Codeword bytes the Reed–Solomon decoder changed.
        public var correctedBytes: Int

        public init(token: [UInt8], correctedBytes: Int) {
            self.token = token
            self.correctedBytes = correctedBytes
        }
    }

    /// Recovers a token from `symbols` (at least `maximumSymbolCount` hard decisions, header
    /// first) and `reliability` (one per symbol, larger is surer; the ratio of the best to the
    /// second-best metric). Lengths are tried with the header's first, then the others in
    /// order; for each, Reed–Solomon errors-only, then errors-and-erasures with the 1, 2, 3, 4
    /// least reliable bytes erased (a byte is as reliable as its less reliable nibble). Only a
    /// codeword whose CRC matches is accepted.
    public static func decode(symbols: [Int], reliability: [Float]) -> Decoded? {
        guard let first = symbols.first else { return nil }
        var order: [Int] = []
        if first >> 2 == version { order.append(tokenLengths[first & 3]) }
        order += tokenLengths.filter { !order.contains($0) }
        for length in order {
            if let decoded = decode(symbols: symbols, reliability: reliability, tokenLength: length) {
                return decoded
            }
        }
        return nil
    }

    /// Recovers a token of a known length (see `decode(symbols:reliability:)`).
    public static func decode(symbols: [Int], reliability: [Float], tokenLength length: Int) -> Decoded? {
        let byteCount = length + 2 + ReedSolomonCode.parityCount
        guard symbols.count >= 1 + 2 * byteCount, reliability.count >= 1 + 2 * byteCount,
            let h = try? header(tokenLength: length)
        else { return nil }
        var word = [UInt8](repeating: 0, count: byteCount)
        var byteReliability = [Float](repeating: 0, count: byteCount)
        for j in 0..<byteCount {
            word[j] = UInt8((symbols[1 + 2 * j] & 0x0F) << 4 | (symbols[2 + 2 * j] & 0x0F))
            byteReliability[j] = min(reliability[1 + 2 * j], reliability[2 + 2 * j])
        }
        let leastReliable = (0..<byteCount).sorted {
            (byteReliability[$0], $0) < (byteReliability[$1], $1)
        }
        for erasureCount in 0...ReedSolomonCode.parityCount {
            guard let correction = ReedSolomonCode.decode(word, erasures: Array(leastReliable.prefix(erasureCount)))
            else {
                continue
            }
            let token = Array(correction.codeword[0..<length])
            let crc = UInt16(correction.codeword[length]) << 8 | UInt16(correction.codeword[length + 1])
            // NUT-37: only a word whose CRC checks is a frame.
            if CRC16CCITT.checksum(CollectionOfOne(UInt8(h)) + token) == crc {
                return Decoded(token: token, correctedBytes: correction.changedBytes)
            }
        }
        return nil
    }
}

/// A token the NUT v1 encoder cannot carry.
public enum AudioTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupportedLength(Int)

    public var description: String {
        switch self {
        case .unsupportedLength(let n):
            "a NUT v1 token is 6, 8, 12 or 16 bytes long, not \(n)"
        }
    }
}
