/// Where an element is in its document: the line and column at which the XML parser read its
/// start tag (the position just past the tag's `>`, as libxml2 reports it; both 1-based).
///
/// Two 32-bit numbers, so that a position takes the 8 bytes of the one `Int` line that
/// elements, scripts, sends and invocations kept before columns were recorded: what
/// `error.execution`'s `_event.data` names costs a large document's load no memory. A line or
/// column beyond `Int32.max` (a document of more than 2 GiB on one line) is kept as
/// `Int32.max`.
struct SCXMLPosition: Sendable, Hashable {
    private let storedLine: Int32
    private let storedColumn: Int32

    /// The position at `line` and `column`.
    init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// The 1-based line.
    var line: Int { Int(storedLine) }
    /// The 1-based column.
    var column: Int { Int(storedColumn) }
}
