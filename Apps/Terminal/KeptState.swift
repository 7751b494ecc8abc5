/// What an app keeps between runs (its `--state FILE`), as its runner sees it: whether
/// what the screens show now is saved.
///
/// With one, ``TerminalApp`` draws a frame only once what it shows is saved: after each
/// command (and before the first frame) it waits for ``waitUntilSaved()`` before drawing,
/// and on a terminal a change drawn between commands is held back while ``isSaved`` is
/// false (the runner reads it under observation tracking, so the frame is drawn when it
/// turns true). A frame on the screen therefore shows only what a crash would not lose.
@MainActor
public protocol KeptState: AnyObject {
    /// Whether the value the app keeps, as the screens show it now, is saved (or saving
    /// has stopped after a failure, which the app reported). Read under observation
    /// tracking: it must read `@Observable` state, so that its change is seen.
    var isSaved: Bool { get }
    /// Returns once ``isSaved`` holds.
    func waitUntilSaved() async
}
