import Foundation
import NearbySystem
import NearbyTestSupport
import Testing

/// The public API of every library product takes and returns values (CONTRIBUTING.md,
/// "Public API"): no declaration mentions an `Unsafe…` pointer type or `OpaquePointer`, an
/// `inout` parameter, or a closure returning nothing (a callback the library calls to emit
/// results). The fast forms behind them are `package`. Outside the rule: the platform module
/// (NearbySystem, whose job is the C library), the fuzz targets, `hash(into:)` (Hashable's
/// requirement), `withContiguousStorageIfAvailable` (Sequence's), and a `progress:` closure
/// (it reports how far a long run has come; the results are still returned as values).
///
/// The public declarations are listed by `swift symbolgraph-extract` from the modules this
/// test was built with (minimum access level public).
struct PublicAPITests {
    /// The modules of the package's library products, from Package.swift, less those outside
    /// the rule.
    static var modules: [String] {
        let manifest = (try? String(contentsOfFile: RepositoryPaths.root + "/Package.swift", encoding: .utf8)) ?? ""
        let products = manifest.matches(of: /\.library\(name: "([A-Za-z]+)"/).map { String($0.output.1) }
        return products.filter { !["NearbySystem", "NearbyFuzzTargets"].contains($0) }
    }

    /// The target the modules were built for.
    #if arch(arm64)
    static let triple = "aarch64-unknown-linux-gnu"
    #else
    static let triple = "x86_64-unknown-linux-gnu"
    #endif

    /// What a declaration breaks, from its declaration fragments (kind, spelling); nil when
    /// nothing.
    static func violation(title: String, fragments: [(kind: String, spelling: String)]) -> String? {
        if ["hash(into:)", "withContiguousStorageIfAvailable(_:)"].contains(title) { return nil }
        let text = fragments.map(\.spelling).joined().replacing(
            /progress: \(?(@Sendable )?\([^()]*\) -> Void\)?/, with: "")
        if let unsafe = fragments.first(where: {
            $0.kind == "typeIdentifier" && ($0.spelling.hasPrefix("Unsafe") || $0.spelling == "OpaquePointer")
        }) {
            return "mentions \(unsafe.spelling)"
        }
        if fragments.contains(where: { $0.kind == "keyword" && $0.spelling == "inout" }) {
            return "has an inout parameter"
        }
        if text.contains("-> Void") || text.contains("-> ()") { return "takes a closure that returns nothing" }
        return nil
    }

    @Test func theRuleFindsPointersInoutAndCallbacks() {
        let fragments: [(String, String)] = [
            ("keyword", "func"), ("text", " "), ("identifier", "decode"), ("text", "("),
            ("externalParam", "into"), ("text", " "), ("internalParam", "slot"), ("text", ": "),
            ("typeIdentifier", "UnsafeMutablePointer"), ("text", "<"), ("typeIdentifier", "Advertisement"),
            ("text", ">)"),
        ]
        #expect(Self.violation(title: "decode(into:)", fragments: fragments.map { ($0.0, $0.1) }) != nil)
        let mutable: [(String, String)] = [
            ("keyword", "func"), ("text", " "), ("identifier", "f"), ("text", "("),
            ("internalParam", "c"), ("text", ": "), ("keyword", "inout"), ("text", " "),
            ("typeIdentifier", "ByteCursor"), ("text", ")"),
        ]
        #expect(Self.violation(title: "f(_:)", fragments: mutable.map { ($0.0, $0.1) }) != nil)
        let emit: [(String, String)] = [
            ("keyword", "func"), ("text", " "), ("identifier", "run"), ("text", "("), ("externalParam", "emit"),
            ("text", ": ("), ("typeIdentifier", "Event"), ("text", ") -> "), ("typeIdentifier", "Void"),
            ("text", ")"),
        ]
        #expect(Self.violation(title: "run(emit:)", fragments: emit.map { ($0.0, $0.1) }) != nil)
        let value: [(String, String)] = [
            ("keyword", "func"), ("text", " "), ("identifier", "read"), ("text", "("), ("externalParam", "_"),
            ("text", " "), ("internalParam", "body"), ("text", ": ("), ("keyword", "borrowing"), ("text", " "),
            ("typeIdentifier", "RecordView"), ("text", ") -> "), ("typeIdentifier", "Bool"), ("text", ") -> "),
            ("typeIdentifier", "CaptureReadStep"),
        ]
        #expect(Self.violation(title: "read(_:)", fragments: value.map { ($0.0, $0.1) }) == nil)
        let progress: [(String, String)] = [
            ("keyword", "func"), ("text", " "), ("identifier", "run"), ("text", "("), ("externalParam", "progress"),
            ("text", ": ("), ("typeIdentifier", "Int"), ("text", ") -> "), ("typeIdentifier", "Void"),
            ("text", ") -> "), ("typeIdentifier", "Report"),
        ]
        #expect(Self.violation(title: "run(progress:)", fragments: progress.map { ($0.0, $0.1) }) == nil)
    }

    #if os(Linux)
    @Test func noPublicDeclarationTakesPointersInoutStateOrCallbacks() throws {
        let root = RepositoryPaths.root
        let build = URL(fileURLWithPath: FileSystem.executablePath()).deletingLastPathComponent().path
        let modulesPath = build + "/Modules"
        try #require(FileManager.default.fileExists(atPath: modulesPath), "no \(modulesPath)")
        // The C modules the Swift modules import: the package's system libraries and the
        // dependencies' own.
        var clangArguments: [String] = []
        for folder in [root + "/Sources", root + "/.build/checkouts"] {
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix("module.modulemap") {
                let map = folder + "/" + file
                clangArguments += [
                    "-Xcc", "-fmodule-map-file=" + map, "-Xcc", "-I", "-Xcc",
                    (map as NSString).deletingLastPathComponent,
                ]
            }
        }
        let output = TemporaryDirectory()
        defer { output.remove() }
        var listed = 0
        var violations: [String] = []
        for module in Self.modules {
            let extract = Process()
            extract.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            extract.arguments =
                [
                    "swift", "symbolgraph-extract", "-module-name", module, "-target", Self.triple,
                    "-I", modulesPath, "-minimum-access-level", "public", "-skip-synthesized-members",
                    "-output-dir", output.path,
                ] + clangArguments
            try extract.run()
            extract.waitUntilExit()
            try #require(extract.terminationStatus == 0, "symbolgraph-extract failed for \(module)")
            // The module's own symbols, and its extensions of other modules' types
            // (`Module@Other.symbols.json`).
            let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter {
                $0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@")
            }
            var symbols: [[String: Any]] = []
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: output.path + "/" + file))
                let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                symbols += try #require(graph["symbols"] as? [[String: Any]])
            }
            #expect(!symbols.isEmpty, "\(module) has no public symbol")
            for symbol in symbols {
                listed += 1
                let title = (symbol["names"] as? [String: Any])?["title"] as? String ?? "?"
                let fragments = (symbol["declarationFragments"] as? [[String: Any]] ?? []).map {
                    (kind: $0["kind"] as? String ?? "", spelling: $0["spelling"] as? String ?? "")
                }
                if let why = Self.violation(title: title, fragments: fragments) {
                    let path = (symbol["pathComponents"] as? [String] ?? [title]).joined(separator: ".")
                    violations.append("\(module).\(path) \(why)")
                }
            }
        }
        #expect(listed > 1000, "only \(listed) public declarations listed")
        #expect(violations.isEmpty, "\(violations.count) public declarations:\n\(violations.joined(separator: "\n"))")
    }
    #endif
}
