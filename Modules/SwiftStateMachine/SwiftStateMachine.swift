// The umbrella product: one import for every runtime library product. Not StateMachineTest,
// which links XCTest and Testing: import it in test targets only.
@_exported import StateMachineBroadcast
@_exported import StateMachineCore
@_exported import StateMachineDump
@_exported import StateMachineGraph
@_exported import StateMachineHierarchy
@_exported import StateMachineSCXML
@_exported import StateMachineTable
@_exported import StateMachineUI

/// The dump's record of a machine's latest state (`StateMachineDump.StateContext`).
/// Declared here so that it shadows `StateMachineBroadcast`'s deprecated alias of the same
/// name (now `BroadcastStateContext`): one import of the umbrella names it without ambiguity.
public typealias StateContext = StateMachineDump.StateContext
