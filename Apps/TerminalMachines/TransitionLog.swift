import Foundation
import StateMachineCore
import Terminal

/// Prints the transition log (`--log`): on a terminal through `console`, so that its lines
/// are printed above the prompt like frames instead of landing on the line being typed;
/// without a terminal on standard error, so that piped frames stay apart from it. (The
/// library's default logger prints nothing: it writes to the system log.) Process-wide: it
/// replaces the logger of every machine (`StateMachineCore.setLogger`).
public func routeTransitionLog(to console: any Console) {
    if console.isInteractive {
        StateMachineCore.setLogger { title, currentState, event, newState in
            console.write("[\(title)] \(currentState) + \(event) => \(newState)")
        }
    } else {
        StateMachineCore.setLogger { title, currentState, event, newState in
            FileHandle.standardError.write(Data("[\(title)] \(currentState) + \(event) => \(newState)\n".utf8))
        }
    }
}
