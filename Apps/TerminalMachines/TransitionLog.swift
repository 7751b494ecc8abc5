import StateMachineCore
import Terminal

/// On a terminal, makes the transition logger (`--log`) write through `console`, so that
/// its lines are printed above the prompt like frames instead of landing on the line being
/// typed; without a terminal the default logger (standard error) stays. Process-wide: it
/// replaces the logger of every machine (`StateMachineCore.setLogger`).
public func routeTransitionLog(to console: any Console) {
    guard console.isInteractive else { return }
    StateMachineCore.setLogger { title, currentState, event, newState in
        console.write("[\(title)] \(currentState) + \(event) => \(newState)")
    }
}
