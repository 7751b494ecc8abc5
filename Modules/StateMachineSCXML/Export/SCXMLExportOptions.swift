/// How ``SCXMLDocument/export(_:options:)`` writes a chart, and what it does with what SCXML
/// cannot express.
public struct SCXMLExportOptions: Sendable, Equatable {
    /// What the export does with parts of a chart that an SCXML document cannot express
    /// (a block without a name, a join, a junction, deferred events, a state's task...).
    public enum Unexpressible: Sendable, Equatable {
        /// Throw ``SCXMLExportError``, listing every such part with where it is.
        case fail
        /// Write the document without them and list each, with where it is, in an XML
        /// comment at the top of the document.
        case comment
    }

    /// What to do with what SCXML cannot express; ``Unexpressible/fail`` by default.
    public var unexpressible: Unexpressible
    /// The value each named guard has in the exported document's `guards` table (by the
    /// guard's name); a guard not listed holds `defaultGuardValue`.
    public var guardValues: [String: Bool]
    /// The value of a named guard that `guardValues` does not list; true by default, so
    /// that the exported chart takes its guarded transitions until the table is edited.
    public var defaultGuardValue: Bool

    /// Options that fail on what SCXML cannot express, and give every guard `defaultGuardValue`
    /// unless `guardValues` lists it.
    public init(
        unexpressible: Unexpressible = .fail,
        guardValues: [String: Bool] = [:],
        defaultGuardValue: Bool = true
    ) {
        self.unexpressible = unexpressible
        self.guardValues = guardValues
        self.defaultGuardValue = defaultGuardValue
    }
}
