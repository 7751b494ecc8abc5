import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SCXMLSourcePolicy {
    /// The bytes of the source `uri` names, if this policy allows it: `uri` is a path or a
    /// `file:` URI relative to `base` (the folder of the document that names it; the current
    /// directory when nil), or any URI the policy's resolver answers.
    ///
    /// A file is read only when its real path (symbolic links and `..` resolved) lies inside
    /// an allowed folder's real path, it is opened without following a link and without
    /// blocking (so a FIFO cannot hang the caller), it is a regular file, and no more than
    /// ``maxBytes`` can be read from it: at most `maxBytes + 1` bytes are ever read, whatever
    /// size the file reports.
    /// - Throws: a ``Refusal`` naming the rule the source broke.
    public func read(_ uri: String, relativeTo base: URL?) throws(Refusal) -> Data {
        let folders: [URL]
        switch origin {
        case .resolver(let resolve):
            let data: Data
            do {
                data = try resolve(uri, base)
            } catch let refusal as Refusal {
                throw refusal
            } catch {
                throw Refusal(rule: "the program's resolver refused it (\(error))")
            }
            guard data.count <= maxBytes else { throw tooLarge }
            return data
        case .none, .documentFolder:
            throw Refusal(
                rule:
                    "the source policy allows no sources (a document given as bytes or a string reads nothing unless the program gives it a policy)"
            )
        case .folders(let given):
            folders = given
        }
        let path = try Self.localPath(of: uri, relativeTo: base)
        let allowed = folders.map { Self.realPath($0.standardizedFileURL.path) ?? $0.standardizedFileURL.path }
        let listed = allowed.map { "'\($0)'" }.joined(separator: ", ")
        guard let real = Self.realPath(path) else {
            let reason = String(cString: strerror(errno))
            guard allowed.contains(where: { Self.isInside(path, folder: $0) }) else {
                throw Refusal(rule: "'\(path)' is outside the allowed folders (\(listed))")
            }
            throw Refusal(rule: "cannot read '\(path)': \(reason)")
        }
        guard allowed.contains(where: { Self.isInside(real, folder: $0) }) else {
            let shown = real == path ? "'\(path)'" : "'\(path)' resolves to '\(real)', which"
            throw Refusal(rule: "\(shown) is outside the allowed folders (\(listed))")
        }
        return try readRegularFile(real)
    }

    /// The refusal of a source longer than ``maxBytes``.
    private var tooLarge: Refusal {
        Refusal(rule: "it is larger than the limit of \(maxBytes) bytes per source")
    }

    /// Reads the regular file at the real path `path`, at most `maxBytes`.
    private func readRegularFile(_ path: String) throws(Refusal) -> Data {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw Refusal(rule: "'\(path)' is a symbolic link, and links are not followed") }
            throw Refusal(rule: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Refusal(rule: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            let kind =
                switch type {
                case S_IFDIR: "a directory"
                case S_IFIFO: "a FIFO"
                case S_IFSOCK: "a socket"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                default: "not a regular file"
                }
            throw Refusal(rule: "'\(path)' is \(kind); only regular files are read")
        }
        var bytes: [UInt8] = []
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        while bytes.count <= maxBytes {
            let wanted = min(chunk, maxBytes + 1 - bytes.count)
            let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Refusal(rule: "cannot read '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
        }
        guard bytes.count <= maxBytes else { throw tooLarge }
        return Data(bytes)
    }

    /// The absolute path a `src` names, relative to `base` (the current directory when nil):
    /// a path (`children/job.scxml`), or a `file:` URI (RFC 8089) — relative
    /// (`file:job.scxml`, as the W3C tests write it), absolute (`file:///srv/job.scxml`,
    /// `file:/srv/job.scxml`) or with the host `localhost` (`file://localhost/srv/job.scxml`);
    /// its path is percent-decoded (`file:my%20job.scxml`). `..` is removed lexically here;
    /// symbolic links are resolved by the caller.
    /// - Throws: a ``Refusal`` for a URI of another scheme, a `file:` URI naming another
    ///   host, or one whose percent-encoding is invalid.
    static func localPath(of source: String, relativeTo base: URL?) throws(Refusal) -> String {
        var path = source
        if let scheme = scheme(of: source) {
            guard scheme.lowercased() == "file" else {
                throw Refusal(
                    rule:
                        "the scheme '\(scheme):' is not read (only paths and file: URIs are, unless the program gives a resolver)"
                )
            }
            var rest = source.dropFirst("file:".count)
            if rest.hasPrefix("//") {
                // The authority: empty or localhost for a local file.
                rest = rest.dropFirst(2)
                let host = rest.prefix { $0 != "/" }
                guard host.isEmpty || host.lowercased() == "localhost" else {
                    throw Refusal(rule: "a file: URI naming another host ('\(host)') is never read")
                }
                rest = rest.dropFirst(host.count)
            }
            guard let decoded = String(rest).removingPercentEncoding, !decoded.isEmpty else {
                throw Refusal(rule: "the file: URI names no file (empty, or invalid percent-encoding)")
            }
            path = decoded
        }
        guard !path.isEmpty, !path.contains("\0") else { throw Refusal(rule: "the name is empty or holds a NUL") }
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }

    /// The scheme of `text` if it starts as a URI does (`letter *( letter / digit / + - . ) :`),
    /// more than one character long (so that nothing reads a drive letter as a scheme).
    static func scheme(of text: String) -> Substring? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard scheme.count > 1, let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme
    }

    /// `path` with every symbolic link and `..` resolved, or nil (with `errno` set) when it
    /// names nothing.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is `folder` or inside it, compared component by component (so that
    /// `/srv/data2` is not inside `/srv/data`).
    static func isInside(_ path: String, folder: String) -> Bool {
        let pathParts = path.split(separator: "/")
        let folderParts = folder.split(separator: "/")
        return pathParts.count >= folderParts.count && Array(pathParts.prefix(folderParts.count)) == folderParts
    }
}

/// The system's `read(2)` (the policy's own `read` hides it inside the type).
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
