/// A readable name for a state or an event, as graphs, paths and failure messages print
/// it: its `description` when the type customises it, otherwise its type and stored values
/// (`DataIsLoaded(value: 1701)`), so that two values of one type can be told apart.
package func describe(_ value: Any) -> String {
    let typeName = String(describing: type(of: value))
    let description = String(describing: value)
    guard description == typeName else { return description }
    let fields = Mirror(reflecting: value).children.map { child in
        child.label.map { "\($0): \(String(describing: child.value))" } ?? String(describing: child.value)
    }
    return "\(typeName)(\(fields.joined(separator: ", ")))"
}
