internal import CDuktape
import StateMachineHierarchy

/// What a session's heap calls back: `In(id)` and the current event, which `_event` turns
/// into an object on its first read after `setEvent` (so an event that no script reads
/// costs nothing more than storing it).
///
/// The C session holds an unretained pointer to it; the Swift session keeps it alive.
final class ECMAScriptSessionHost {
    let isActive: @Sendable (String) -> Bool
    var event: SCXMLEventFields?
    /// The bytes of the last event read, kept to reuse their storage.
    private var eventBytes: [UInt8] = []

    init(isActive: @escaping @Sendable (String) -> Bool) {
        self.isActive = isActive
    }

    /// The C host: this object as context, and the two callbacks.
    var callbacks: scxml_js_host {
        scxml_js_host(
            context: Unmanaged.passUnretained(self).toOpaque(),
            is_active: { context, id, length in
                let host = Unmanaged<ECMAScriptSessionHost>.fromOpaque(context!).takeUnretainedValue()
                let name = String(decoding: UnsafeRawBufferPointer(start: id, count: length), as: UTF8.self)
                return host.isActive(name) ? 1 : 0
            },
            provide_event: { context, session in
                let host = Unmanaged<ECMAScriptSessionHost>.fromOpaque(context!).takeUnretainedValue()
                guard let event = host.event else { return }
                ECMAScriptWire.encode(event, into: &host.eventBytes)
                host.eventBytes.withUnsafeBufferPointer {
                    scxml_js_provide_event(session, $0.baseAddress, $0.count)
                }
            }
        )
    }
}
