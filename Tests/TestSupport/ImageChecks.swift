import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the tests check of a rendered image: that the bytes are the format they claim.
public enum ImageChecks {
    /// The texts an SVG image shows (`<text>` and `<title>` elements, without the spaces
    /// around them), or nil when the bytes
    /// do not parse as XML whose root element is `<svg>`.
    public static func svgTexts(_ bytes: [UInt8]) -> [String]? {
        guard let document = try? XMLDocument(data: Data(bytes)), let root = document.rootElement(),
            root.name == "svg"
        else { return nil }
        var texts: [String] = []
        func visit(_ node: XMLNode) {
            if let element = node as? XMLElement, element.name == "text" || element.name == "title" {
                texts.append((element.stringValue ?? "").trimmingCharacters(in: .whitespaces))
            }
            node.children?.forEach(visit)
        }
        visit(root)
        return texts
    }

    /// The width and height of a PNG image, from its header, or nil when the bytes do not
    /// start with the PNG signature and an `IHDR` chunk.
    public static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func integer(at offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return (integer(at: 16), integer(at: 20))
    }

    /// The names of `states` that the SVG `bytes` does not show (all of them when it is not
    /// an SVG image). A state's name shows as a text of the image (a cluster's label, a
    /// node's label or its title).
    public static func statesMissing(from bytes: [UInt8], _ states: [String]) -> [String] {
        guard let texts = svgTexts(bytes) else { return states }
        let shown = Set(texts)
        return states.filter { !shown.contains($0) }
    }
}
