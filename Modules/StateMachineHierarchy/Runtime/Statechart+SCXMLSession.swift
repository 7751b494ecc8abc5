// The entry points of an SCXML session's hot path, compiled here for the chart type the
// `StateMachineSCXML` layer runs. That layer is another module: calling the generic
// `lookUp(_:)` and `request(for:)` from there would run them unspecialised (a generic
// dictionary lookup and hashing through witness tables on every event), so it calls these,
// which this module specialises for `String` names and `SCXMLEventFields` payloads.

extension Statechart.Hooks where StateID == String, EventID == String, Payload == SCXMLEventFields {
    /// `lookUp(_:)` for an SCXML session's event `name`.
    package func lookUpSessionEvent(_ name: String) throws(StatechartError) -> (index: Int32, unlisted: String?) {
        try lookUp(name)
    }

    /// `request(for:)` for an event an SCXML session raises or sends.
    package func sessionRequest(for event: Statechart.Event) throws(StatechartError) -> StepRequest {
        try request(for: event)
    }

    /// The index of the state named `id` in the compiled model, if the chart has one.
    package func sessionStateIndex(_ id: String) -> Int32? {
        model.stateIndex[id]
    }
}
