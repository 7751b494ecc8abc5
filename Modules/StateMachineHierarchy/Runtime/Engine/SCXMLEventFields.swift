/// The fields of `_event` (SCXML 1.0, section 5.10.1): what an event carries through the
/// chart's queue, and what the data model binds `_event` to.
package struct SCXMLEventFields: Sendable, Equatable {
    /// `name`.
    package var name: String
    /// `type`: `"platform"`, `"internal"` or `"external"`.
    package var type: String
    /// `sendid` (undefined when nil).
    package var sendID: String?
    /// `origin` (undefined when nil).
    package var origin: String?
    /// `origintype` (undefined when nil).
    package var originType: String?
    /// `invokeid` (undefined when nil).
    package var invokeID: String?
    /// `data` (undefined when nil).
    package var data: SCXMLValue?

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
        self.sendID = sendID
        self.origin = origin
        self.originType = originType
        self.invokeID = invokeID
        self.data = data
    }
}
