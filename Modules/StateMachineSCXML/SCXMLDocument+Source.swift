import Foundation
import StateMachineHierarchy

extension SCXMLDocument {
    /// The file an `<invoke src>` names, relative to `base` (the invoking document's folder;
    /// the current directory when nil): a path (`children/job.scxml`), or a `file:` URI
    /// (RFC 8089) — relative (`file:job.scxml`, as the W3C tests write it), absolute
    /// (`file:///srv/job.scxml`, `file:/srv/job.scxml`) or with the host `localhost`
    /// (`file://localhost/srv/job.scxml`); its path is percent-decoded (`file:my%20job.scxml`).
    ///
    /// A `file:` URI naming another host, or whose percent-encoding is invalid, names no
    /// file this process can read: it stays as written, so that the load error quotes it.
    static func fileURL(ofSource source: String, relativeTo base: URL?) -> URL {
        var path = source
        if source.lowercased().hasPrefix("file:") {
            var rest = source.dropFirst("file:".count)
            var local = true
            if rest.hasPrefix("//") {
                // The authority: empty or localhost for a local file.
                rest = rest.dropFirst(2)
                let host = rest.prefix { $0 != "/" }
                local = host.isEmpty || host.lowercased() == "localhost"
                rest = rest.dropFirst(host.count)
            }
            if local, let decoded = String(rest).removingPercentEncoding, !decoded.isEmpty {
                path = decoded
            }
        }
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
    }
}
