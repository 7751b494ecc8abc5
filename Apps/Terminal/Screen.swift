/// One screen of a terminal app: a title, a body and the commands it accepts now.
///
/// The runner renders `body(style:)` and `commands` inside `withObservationTracking`, so a
/// screen that reads `@Observable` state there (a `UIStateMachine`'s `state`) is rendered
/// again whenever that state changes, with bursts coalesced into one frame.
@MainActor
public protocol Screen: AnyObject {
    /// The screen's title.
    var title: String { get }
    /// The body lines.
    func body(style: TerminalStyle) -> [String]
    /// The commands the screen accepts, with whether the state allows each now.
    var commands: [CommandSpec] { get }
    /// Whether long work is running; the runner then shows that it is working.
    var isBusy: Bool { get }
    /// The state the screen's machine is in, as a refusal names it
    /// (`'close' is not available in state ElevatorIsClosed (persons: 0)`); nil when the
    /// screen has no machine.
    var stateName: String? { get }
    /// Whether the screen has a step of its own to go back to (a sheet to close, a route
    /// of its state machine's stack to pop): `back` is then available even on the first
    /// screen, where it is otherwise refused and shown dimmed.
    var hasOwnBackStep: Bool { get }
    /// Whether `back` is offered on this screen (listed, completed and accepted); a tool
    /// with a single screen says no, and `back` is then an unknown command there.
    var offersBack: Bool { get }
    /// What the user may have meant by `name`, a command the screen does not have (`send
    /// bogus` for an event name); nil to say nothing more than that it is unknown.
    func hint(forUnknown name: String) -> String?
    /// A command the screen accepts without listing it, named `name` as typed (case kept):
    /// the statechart tool's events that a chart's descriptor matches by prefix (`coin.dollar`
    /// where a transition is on `coin`). Enabled, it is performed like a listed command;
    /// disabled, refused with its `availableWhen`. Nil (the default): `name` is unknown.
    func command(forUnlisted name: String) -> CommandSpec?
    /// Called when the screen is shown (first time or back from another): start machines.
    func didAppear()
    /// Runs `command`, which is one of `commands` and enabled.
    func perform(_ command: ParsedCommand) async -> CommandResult
    /// Handles the built-in `back` for a screen that keeps its own navigation (a stack of
    /// routes in a state machine); nil leaves `back` to the runner, which pops its stack.
    func back() async -> CommandResult?
    /// Returns once the screen shows the whole effect of the last command (or of appearing):
    /// its machines processed the events and the outputs they started, and the state it
    /// renders caught up. Without a terminal the runner awaits it before drawing each
    /// frame, which makes piped transcripts deterministic. A screen whose commands are
    /// synchronous needs nothing here.
    func settle() async
}

extension Screen {
    /// Not busy unless the screen says so.
    public var isBusy: Bool { false }
    /// No machine unless the screen says so.
    public var stateName: String? { nil }
    /// The runner's stack decides `back` unless the screen says otherwise.
    public var hasOwnBackStep: Bool { false }
    /// `back` is offered unless the screen says otherwise.
    public var offersBack: Bool { true }
    /// No hint unless the screen gives one.
    public func hint(forUnknown name: String) -> String? { nil }
    /// No unlisted commands unless the screen takes some.
    public func command(forUnlisted name: String) -> CommandSpec? { nil }
    /// Nothing to start unless the screen says so.
    public func didAppear() {}
    /// `back` pops the runner's stack unless the screen says otherwise.
    public func back() async -> CommandResult? { nil }
    /// Settled at once unless the screen says otherwise.
    public func settle() async {}
}
