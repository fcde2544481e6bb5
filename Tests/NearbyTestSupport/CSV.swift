import Foundation

/// A small CSV reader (RFC 4180 quoting) for the ground-truth files.
public enum CSV {
    public static func rows(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var records: [[String]] = []
        var field = ""
        var record: [String] = []
        var quoted = false
        func endField() {
            record.append(field)
            field = ""
        }
        func endRecord() {
            endField()
            records.append(record)
            record = []
        }
        var chars = text.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    if let n = chars.next() {
                        if n == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            if n == "," {
                                endField()
                            } else if n == "\n" || n == "\r\n" {
                                endRecord()
                            } else {
                                field.append(n)
                            }
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                endField()
            } else if c == "\n" || c == "\r\n" {
                endRecord()
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }
}
