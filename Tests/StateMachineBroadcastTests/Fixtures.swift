import Foundation
import StateMachineCore
import TestSupport
import Testing

// MARK: Helpers
