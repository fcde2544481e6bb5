import ArgumentParser

/// `--jobs N`: how many threads a command works on. Commands that take it give the same
/// output for any value.
struct JobsOption: ParsableArguments {
    // A negative value is read as the value (then refused with the allowed range), not as an option.
    @Option(parsing: .unconditional, help: "Worker threads, at least 1 (the output is the same for any value).")
    var jobs: Int = 1

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }
}
