/// The fields of `_event` (SCXML 1.0, section 5.10.1): what an event carries through the
/// chart's queue, and what the data model binds `_event` to.
///
/// Nearly every event has a name and a type and nothing else, and the value is copied a few
/// times per event (into the queue, the step's context, the data model's host), so the
/// five other fields live in one immutable box, nil while they are all undefined: a copy is
/// two strings and one reference, not seven fields.
package struct SCXMLEventFields: Sendable, Equatable {
    /// `name`.
    package var name: String
    /// `type`: `"platform"`, `"internal"` or `"external"`.
    package var type: String
    /// The fields other than `name` and `type`; nil when they are all undefined.
    private var rare: RareFields?

    /// An event's fields.
    package init(
        name: String,
        type: String,
        sendID: String? = nil,
        origin: String? = nil,
        originType: String? = nil,
        invokeID: String? = nil,
        data: SCXMLValue? = nil
    ) {
        self.name = name
        self.type = type
        // No box while every rare field is undefined: the usual event makes none.
        let values = RareFields.Values(
            sendID: sendID,
            origin: origin,
            originType: originType,
            invokeID: invokeID,
            data: data
        )
        rare = values.isEmpty ? nil : RareFields(values)
    }

    /// `sendid` (undefined when nil).
    package var sendID: String? {
        get { rare?.values.sendID }
        set { update { $0.sendID = newValue } }
    }
    /// `origin` (undefined when nil).
    package var origin: String? {
        get { rare?.values.origin }
        set { update { $0.origin = newValue } }
    }
    /// `origintype` (undefined when nil).
    package var originType: String? {
        get { rare?.values.originType }
        set { update { $0.originType = newValue } }
    }
    /// `invokeid` (undefined when nil).
    package var invokeID: String? {
        get { rare?.values.invokeID }
        set { update { $0.invokeID = newValue } }
    }
    /// `data` (undefined when nil).
    package var data: SCXMLValue? {
        get { rare?.values.data }
        set { update { $0.data = newValue } }
    }

    /// Changes the rare fields in a new box (the box is shared by copies, so never changed
    /// in place), dropping it when every field is undefined again.
    private mutating func update(_ change: (inout RareFields.Values) -> Void) {
        var values = rare?.values ?? RareFields.Values()
        change(&values)
        rare = values.isEmpty ? nil : RareFields(values)
    }

    package static func == (lhs: SCXMLEventFields, rhs: SCXMLEventFields) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.rare?.values == rhs.rare?.values
    }
}

/// The rare fields of ``SCXMLEventFields``. Immutable, so `Sendable`.
final class RareFields: Sendable {
    /// The fields as a value, to change a copy of them.
    struct Values: Equatable {
        var sendID: String?
        var origin: String?
        var originType: String?
        var invokeID: String?
        var data: SCXMLValue?

        var isEmpty: Bool { sendID == nil && origin == nil && originType == nil && invokeID == nil && data == nil }
    }

    let values: Values

    init(_ values: Values) {
        self.values = values
    }
}
