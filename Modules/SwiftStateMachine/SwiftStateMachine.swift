// The umbrella product: one import for every library product.
@_exported import StateMachineBroadcast
@_exported import StateMachineCore
@_exported import StateMachineDump
@_exported import StateMachineHierarchy
@_exported import StateMachineTable
@_exported import StateMachineTest
@_exported import StateMachineUI
