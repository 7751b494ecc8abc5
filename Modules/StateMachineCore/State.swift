// StateMachineCore
