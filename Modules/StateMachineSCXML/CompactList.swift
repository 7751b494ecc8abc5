/// A short list that holds one element without an allocation: a document's transitions
/// almost always name one event and one target, and an `Array` of one element is an
/// allocation of its own (about 70 bytes with the allocator's rounding, for every
/// transition's events and again for its targets). Longer lists are arrays.
///
/// It describes itself as an array does: a durable session's definition fingerprint is
/// made of text that includes these lists (see `SCXMLDocument.structureLines`), and the
/// default description of a type with a private member names that member's address, which
/// differs from process to process.
struct CompactList<Element: Sendable>: RandomAccessCollection, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case none
        case one(Element)
        case many([Element])
    }

    private let storage: Storage

    /// The elements of `elements`, in order.
    init(_ elements: some Collection<Element>) {
        switch elements.count {
        case 0: storage = .none
        case 1: storage = .one(elements[elements.startIndex])
        default: storage = .many(Array(elements))
        }
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let elements): elements.count
        }
    }

    subscript(position: Int) -> Element {
        switch storage {
        case .one(let element):
            precondition(position == 0, "CompactList index out of range")
            return element
        case .many(let elements):
            return elements[position]
        case .none:
            preconditionFailure("CompactList index out of range")
        }
    }

    var description: String { Array(self).description }
}
