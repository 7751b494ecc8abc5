// The StateMachineHierarchy product: UML statecharts.
