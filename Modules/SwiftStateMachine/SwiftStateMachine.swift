// The umbrella product: one import for every library product.
@_exported import StateMachineCore
@_exported import StateMachineHierarchy
@_exported import StateMachineTable
@_exported import StateMachineTest
