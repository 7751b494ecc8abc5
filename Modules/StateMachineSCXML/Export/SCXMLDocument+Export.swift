import StateMachineHierarchy

extension SCXMLDocument {
    /// Writes a statechart definition (made with the DSL or read from JSON) as an SCXML
    /// document's text, which ``SCXMLDocument/init(xml:dataModel:sources:)`` loads and
    /// ``SCXMLInterpreter`` runs with the steps the definition takes under
    /// `StatechartOptions.scxml`.
    ///
    /// Written as SCXML has them: states, compound and parallel states (a parallel
    /// region of several states becomes a `<state>` named `<parallel>.region<N>`, which
    /// the configuration then shows and which keeps a transition inside the region inside
    /// it, as `StatechartOptions.TransitionDomain.leastCommonRegion` does, where the chart under
    /// `.scxml` exits the whole parallel state), finals, `initial`, shallow and deep history with
    /// their defaults, transitions with their events (and `done.state.<id>` for done
    /// transitions), eventless transitions, a local transition as `type="internal"`, an
    /// internal one as a targetless transition, a fork as a transition to its targets, and
    /// a delayed transition as a `<send event="after.<state>.<n>" delay id>` in the
    /// state's `<onentry>`, a `<cancel sendid>` in its `<onexit>` and a transition on that
    /// event. Named blocks become placeholders: an enter, exit or transition action named
    /// `N` (`onEnter(named:_:)`, `onExit(named:_:)`, `naming(action:)`) is `<log label="N"/>`;
    /// a guard named `N` is `cond="guard('N')"`, for which the document declares the
    /// ECMAScript data model, a `guards` table (every guard's value from `options`) and
    /// the function `guard` that reads it.
    ///
    /// What SCXML cannot express (a block without a name, a join, a junction, deferred
    /// events, a state's task, a local transition SCXML's `type="internal"` does not
    /// mean, a name that is no XML identifier, a wildcard that would also match a
    /// delayed transition's event) is never dropped silently: the export throws, listing
    /// each part and where it is, or with ``SCXMLExportOptions/Unexpressible/comment`` writes
    /// the document without them and lists them in a comment at its top.
    ///
    /// Costs one walk of the chart; the text is built in memory.
    /// - Throws: ``SCXMLExportError`` listing every part that cannot be expressed.
    public static func export<StateID, EventID, Payload>(
        _ definition: Statechart<StateID, EventID, Payload>.Definition,
        options: SCXMLExportOptions = SCXMLExportOptions()
    ) throws(SCXMLExportError) -> String {
        var writer = SCXMLExportWriter(outline: definition.exportOutline, options: options)
        let text = writer.write()
        if options.unexpressible == .fail, !writer.issues.isEmpty {
            throw SCXMLExportError(issues: writer.issues)
        }
        return text
    }
}
