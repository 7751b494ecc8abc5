import StateMachineCore
import StateMachineSupport

/// A terminal view of a ``UIStateMachine``: it renders the UI state as lines of text and
/// renders again whenever the state changes.
///
/// ```swift
/// let view = StateMachineView(uiStateMachine: uiStateMachine) { state in
///     ["Counter: \(state.value)"]
/// }
/// view.start()
/// ```
///
/// Rendering: ``start()`` renders the first frame at once, tracking what `render` reads
/// with `withObservationTracking`. A change schedules one render on the main actor;
/// further changes before that render are coalesced into it, so a burst of states costs
/// one frame, which shows the latest state. A frame equal to the previous one is not
/// written. Rendering stops with ``stop()`` or when the view is released. The loop is the
/// one the package's terminal apps render their screens with.
@MainActor
public final class StateMachineView<UIState: Equatable, SuperEvent> {
    /// The UI machine the view renders and that its widgets send events to.
    public let uiStateMachine: UIStateMachine<UIState, SuperEvent>

    private let render: (UIState) -> [String]
    private let output: any TerminalOutput
    /// The loop of the current rendering session, if rendering.
    private var loop: RenderLoop?

    /// A view of `uiStateMachine` that writes `render(state)` to `output`.
    public init(
        uiStateMachine: UIStateMachine<UIState, SuperEvent>,
        output: any TerminalOutput = StandardTerminalOutput(),
        render: @escaping (UIState) -> [String]
    ) {
        self.uiStateMachine = uiStateMachine
        self.output = output
        self.render = render
    }

    /// A view of a UI machine over a machine built by `factory`; the UI state is its
    /// super state.
    public convenience init(
        factory: AsyncStateMachineFactory<UIState, SuperEvent>,
        output: any TerminalOutput = StandardTerminalOutput(),
        render: @escaping (UIState) -> [String]
    ) {
        self.init(uiStateMachine: UIStateMachine(asyncStateMachineFactory: factory), output: output, render: render)
    }

    /// A view of a UI machine over a machine built by `factory`, whose UI state is
    /// `mapping(superState)`.
    public convenience init<SuperState>(
        factory: AsyncStateMachineFactory<SuperState, SuperEvent>,
        mapping: @escaping (SuperState) -> UIState,
        output: any TerminalOutput = StandardTerminalOutput(),
        render: @escaping (UIState) -> [String]
    ) {
        self.init(
            uiStateMachine: UIStateMachine(asyncStateMachineFactory: factory, mapping: mapping),
            output: output,
            render: render
        )
    }

    /// Whether the view is rendering.
    public var isRendering: Bool { loop != nil }

    /// Starts the UI machine, writes the first frame and re-renders on every change.
    /// Calling it while rendering does nothing.
    public func start() {
        guard !isRendering else { return }
        uiStateMachine.start()
        // The loop's drawing holds the writer, not the view, so that rendering does not
        // keep the view alive.
        let frames = FrameWriter(uiStateMachine: uiStateMachine, output: output, render: render)
        let loop = RenderLoop { frames.renderLatest() }
        self.loop = loop
        loop.render()
    }

    /// Stops rendering; no frame is written afterwards. ``start()`` renders again. The UI
    /// machine keeps observing its machine.
    public func stop() {
        loop?.stop()
        loop = nil
    }
}

/// Writes the frames of one rendering session.
@MainActor
private final class FrameWriter<UIState: Equatable, SuperEvent> {
    let uiStateMachine: UIStateMachine<UIState, SuperEvent>
    let output: any TerminalOutput
    let render: (UIState) -> [String]
    var lastFrame: TerminalFrame?

    init(
        uiStateMachine: UIStateMachine<UIState, SuperEvent>,
        output: any TerminalOutput,
        render: @escaping (UIState) -> [String]
    ) {
        self.uiStateMachine = uiStateMachine
        self.output = output
        self.render = render
    }

    /// Renders the current state and writes it if it differs from the last frame.
    func renderLatest() {
        let frame = TerminalFrame(lines: render(uiStateMachine.state))
        guard frame != lastFrame else { return }
        lastFrame = frame
        output.write(frame: frame)
    }
}
