/// Where a statement of a transition table was written: the file and line Swift passed
/// as the `#file` and `#line` default arguments of `define`, `when`, `then`, `matching`...
public struct StatementLocation: Hashable, Sendable, CustomStringConvertible {
    /// The source file, as `#file` spelled it.
    public let file: String
    /// The line in ``file``.
    public let line: Int

    /// Makes a location from a file and a line.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `File.swift:12`: the last path component and the line.
    public var description: String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return "\(name):\(line)"
    }
}
