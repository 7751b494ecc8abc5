/// A weak reference that can be set once after the closures that read it were created.
@usableFromInline
final class WeakBox<Object: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written once, by the initialiser of the object that
    // creates the box, before that object is shared with any other task; afterwards it is
    // only read (weak loads are atomic in the Swift runtime).
    @usableFromInline weak var value: Object?

    @usableFromInline init() {}
}
