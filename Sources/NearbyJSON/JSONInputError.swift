/// A JSON input that cannot be used, the one error of the JSON layer: the parser's (a line
/// and column), a reader's of parsed values (a JSON path such as `$.events[3].subscribe.type`)
/// and a file's (the file, and either of those, or neither when the file could not be read).
/// What kind is `code`, from the one code space `JSONInputFault`; why is `reason`, in words.
/// Readers build their whole value before anything uses it, so nothing of a rejected input is
/// applied.
public struct JSONInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it; nil for input not read from a file, until the file's
    /// reader names it (`in(file:)`).
    public var file: String?
    /// The JSON path of the value at fault (`$` is the whole input); nil for a syntax error
    /// other than a repeated key, which only a line and column locate, and for a file that
    /// could not be read.
    public var path: String?
    /// The line (from 1) of a syntax error or a repeated key; nil otherwise.
    public var line: Int?
    /// The column (from 1, in bytes) of a syntax error or a repeated key; nil otherwise.
    public var column: Int?
    public var code: JSONInputFault
    public var reason: String

    /// An error at the value at `path`.
    public init(path: String, code: JSONInputFault, reason: String) {
        (self.path, self.code, self.reason) = (path, code, reason)
    }

    /// An error at a line and column of the text; `path` names the member for a repeated key.
    public init(line: Int, column: Int, path: String? = nil, code: JSONInputFault, reason: String) {
        (self.line, self.column, self.path, self.code, self.reason) = (line, column, path, code, reason)
    }

    /// An error of the file `file` as a whole (it cannot be opened, read, or is too large).
    public init(file: String, code: JSONInputFault, reason: String) {
        (self.file, self.code, self.reason) = (file, code, reason)
    }

    /// The error, found in `file`.
    public func `in`(file: String) -> JSONInputError {
        var named = self
        named.file = file
        return named
    }

    /// `line L, column C`, when the error has a place in the text.
    private var position: String? { line.map { "line \($0), column \(column ?? 1)" } }

    /// Where in the input, in words: the JSON path, else `line L, column C`, else empty.
    public var location: String { path ?? position ?? "" }

    /// The reason, followed by the line and column when the location is a JSON path that
    /// they also have (a repeated key): `duplicate key "b" (line 1, column 13)`.
    public var detail: String {
        guard path != nil, let position else { return reason }
        return "\(reason) (\(position))"
    }

    /// `location: detail`, or the detail alone where the location is not known.
    public var message: String { location.isEmpty ? detail : "\(location): \(detail)" }

    /// `file: message`, or the message alone for input not read from a file.
    public var description: String { file.map { "\($0): \(message)" } ?? message }
}
