// The StateMachineTable product: a SwiftFSM-style transition-table builder.
