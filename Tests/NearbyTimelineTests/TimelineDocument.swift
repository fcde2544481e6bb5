import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A timeline report read back as a person's browser would see its marks: the `<svg>` parsed
/// as XML (which also checks that it is well formed), each mark (class `m`) with its classes,
/// the number of ticks it stands for (`data-n`, else 1), its hover text and its lane's and
/// group's labels.
struct TimelineDocument {
    struct Mark {
        var classes: Set<String>
        var count: Int
        var title: String
        var lane: String
        var group: String
    }

    var html: String
    var marks: [Mark] = []
    var wellFormed = false

    init(_ html: String) {
        self.html = html
        guard let start = html.range(of: "<svg"), let end = html.range(of: "</svg>", options: .backwards) else {
            return
        }
        let svg = String(html[start.lowerBound..<end.upperBound])
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        wellFormed = parser.parse()
        marks = reader.marks
    }

    func marks(_ classes: String..., lane: String? = nil) -> [Mark] {
        marks.filter { m in
            classes.allSatisfy(m.classes.contains) && (lane.map { m.lane.hasPrefix($0) } ?? true)
        }
    }

    /// Every attribute or rule that could fetch something: the report must need nothing else.
    var externalReferences: [String] {
        ["src=", "href=", "@import", "url(", "<link", "<iframe", "<object"].filter { html.contains($0) }
    }

    final class Reader: NSObject, XMLParserDelegate {
        var marks: [Mark] = []
        var group = ""
        var lane = ""
        var text = ""
        var inGroupTitle = false
        var inLaneLabel = false
        var laneLabelTaken = false
        /// Open elements: the index of their mark in `marks`, when they are one.
        var stack: [Int?] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let classes = Set((attributes["class"] ?? "").split(separator: " ").map(String.init))
            text = ""
            if name == "g", classes.contains("lane") {
                lane = ""
                laneLabelTaken = false
            }
            if name == "text" {
                inGroupTitle = classes.contains("group")
                inLaneLabel = !classes.contains("group") && !classes.contains("axis") && !laneLabelTaken
            }
            if classes.contains("m") {
                marks.append(
                    Mark(
                        classes: classes, count: Int(attributes["data-n"] ?? "1") ?? 0, title: "", lane: lane,
                        group: group))
                stack.append(marks.count - 1)
            } else {
                stack.append(nil)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "title", stack.count >= 2, let owner = stack[stack.count - 2] { marks[owner].title = text }
            if name == "title", inLaneLabel {
                lane = text
                laneLabelTaken = true
                inLaneLabel = false
            }
            if name == "text", inGroupTitle {
                group = text
                inGroupTitle = false
            }
            stack.removeLast()
        }
    }
}
