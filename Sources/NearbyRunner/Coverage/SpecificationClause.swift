/// One normative statement of docs/spec/ (docs/spec/README.md, "Clauses"): a list item that
/// starts with its id in bold and ends with its source in brackets.
public struct SpecificationClause: Sendable, Equatable {
    /// `EDDYSTONE-TLM-3`, `ENGINE-O2`.
    public var id: String
    /// The page's file name, `eddystone.md`.
    public var page: String
    /// The 1-based line of the page the clause starts on.
    public var line: Int
    /// The statement, its lines joined, without the id and the held-by-tests mark.
    public var text: String
    /// Marked *(held by tests)*: no vector can exercise it, so tests that cite it hold it.
    public var heldByTests: Bool
}
