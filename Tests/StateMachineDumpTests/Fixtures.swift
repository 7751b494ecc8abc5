import Foundation
import TestSupport
import Testing

@testable import StateMachineCore

// MARK: Helpers

/// A state whose super state is not Encodable, and which is not Equatable.
struct Opaque: Sendable { let value: Int }
enum OpaqueEvent {}
struct OpaqueState: State {
    var superState: Opaque { Opaque(value: 1) }
}
