import Foundation

/// What an SCXML document may read by name: every `src` (`<data src>`, `<script src>`,
/// `<invoke src>`) at load time and every `<invoke srcexpr>` when it runs. W3C leaves these
/// names to the platform; this policy is the program's answer, given when the document is
/// loaded and inherited by every document it invokes.
///
/// A document read from a file (``SCXMLDocument/load(contentsOf:dataModel:sources:)``) gets
/// ``documentFolder`` unless told otherwise: regular files inside that document's own folder,
/// after resolving symbolic links and `..`, and nothing else. A document read from bytes or a
/// string has no folder, so it gets ``none``. A program allows more with ``folders(_:maxBytes:)``
/// or answers every name itself with ``resolver(maxBytes:_:)``.
///
/// Whatever the policy, a file is opened without following a symbolic link and without
/// blocking, only a regular file is read (never a device, a FIFO or a socket), and at most
/// ``maxBytes`` are read from any source (counting the bytes read, not the size the file
/// reports). A refused source is the load error ``SCXMLError/sourceRefused(element:attribute:value:line:rule:)``,
/// or `error.execution` for a run-time `srcexpr`; the message names the rule, never the
/// contents. See the article "Loading documents you did not write" for the threat model.
public struct SCXMLSourcePolicy: Sendable {
    /// Where sources may come from.
    enum Origin: Sendable {
        /// The folder of the document read from a file (none for bytes or a string), and
        /// `also` these folders.
        case documentFolder(also: [URL])
        /// Nothing.
        case none
        /// Regular files under these folders.
        case folders([URL])
        /// The program's resolver.
        case resolver(@Sendable (_ uri: String, _ base: URL?) throws -> Data)
    }

    /// Where sources may come from.
    let origin: Origin

    /// The most bytes read from one source: a longer one is refused. 1 MiB unless set.
    public var maxBytes: Int

    /// The bound on one source's size unless a policy sets another: 1 MiB.
    public static let defaultMaxBytes = 1 << 20

    init(origin: Origin, maxBytes: Int) {
        self.origin = origin
        self.maxBytes = max(0, maxBytes)
    }

    /// Regular files inside the folder of the document being loaded (after resolving
    /// symbolic links and `..`), at most ``defaultMaxBytes`` each: the default of
    /// ``SCXMLDocument/load(contentsOf:dataModel:sources:)``. A document given as bytes or
    /// a string has no folder, so with this policy it reads nothing.
    public static var documentFolder: SCXMLSourcePolicy {
        SCXMLSourcePolicy(origin: .documentFolder(also: []), maxBytes: defaultMaxBytes)
    }

    /// ``documentFolder`` and `folders` besides (each compared by its real path), at most
    /// `maxBytes` each: what the `statechart` tool's `--allow-sources DIR` gives, where every
    /// document of a run (each conformance test, say) keeps its own folder. A document given
    /// as bytes or a string reads from `folders` only.
    public static func documentFolder(and folders: [URL], maxBytes: Int = defaultMaxBytes) -> SCXMLSourcePolicy {
        SCXMLSourcePolicy(origin: .documentFolder(also: folders), maxBytes: maxBytes)
    }

    /// No source at all: every `src` and `srcexpr` is refused. The default of documents given
    /// as bytes or a string.
    public static var none: SCXMLSourcePolicy { SCXMLSourcePolicy(origin: .none, maxBytes: defaultMaxBytes) }

    /// Regular files inside any of `folders` (each compared by its real path, component by
    /// component), at most `maxBytes` each. Relative names still start from the folder of the
    /// document that writes them; the document's own folder is allowed only if it is listed.
    public static func folders(_ folders: [URL], maxBytes: Int = defaultMaxBytes) -> SCXMLSourcePolicy {
        SCXMLSourcePolicy(origin: .folders(folders), maxBytes: maxBytes)
    }

    /// The program answers every name itself: `resolve` is given the name as the document
    /// writes it (a path or a URI of any scheme) and the folder of the document that writes it
    /// (nil for one given as bytes or a string), and returns the bytes or throws to refuse
    /// (the refusal's message names the error thrown). At most `maxBytes` of what it returns
    /// are accepted. It may be called from the thread of any session that evaluates a
    /// `srcexpr`.
    public static func resolver(
        maxBytes: Int = defaultMaxBytes,
        _ resolve: @escaping @Sendable (_ uri: String, _ base: URL?) throws -> Data
    ) -> SCXMLSourcePolicy {
        SCXMLSourcePolicy(origin: .resolver(resolve), maxBytes: maxBytes)
    }

    /// The policy a document read from the file in `folder` reads with: ``documentFolder``
    /// becomes that folder (and stays so for every document it invokes).
    func rooted(at folder: URL?) -> SCXMLSourcePolicy {
        guard case .documentFolder(let also) = origin else { return self }
        let folders = (folder.map { [$0] } ?? []) + also
        guard !folders.isEmpty else { return SCXMLSourcePolicy(origin: .none, maxBytes: maxBytes) }
        return SCXMLSourcePolicy(origin: .folders(folders), maxBytes: maxBytes)
    }

    /// Why a source was refused: the rule it broke, in words, naming paths but never what a
    /// file holds.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The rule the source broke.
        public let rule: String

        /// A refusal for breaking `rule`.
        public init(rule: String) {
            self.rule = rule
        }

        /// The rule.
        public var description: String { rule }
    }
}
