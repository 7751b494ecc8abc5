import Observation
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
/// written. Rendering stops with ``stop()`` or when the view is released.
@MainActor
public final class StateMachineView<UIState: Equatable, SuperEvent> {
    /// The UI machine the view renders and that its widgets send events to.
    public let uiStateMachine: UIStateMachine<UIState, SuperEvent>

    private let render: (UIState) -> [String]
    private let output: any TerminalOutput
    private let rendering = Lock(Rendering())

    private struct Rendering: Sendable {
        var loop: Task<Void, Never>?
        var changes: AsyncStream<Void>.Continuation?
    }

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

    deinit {
        let rendering = rendering.withLock { $0 }
        rendering.loop?.cancel()
        rendering.changes?.finish()
    }

    /// Whether the view is rendering.
    public var isRendering: Bool { rendering.withLock { $0.loop != nil } }

    /// Starts the UI machine, writes the first frame and re-renders on every change.
    /// Calling it while rendering does nothing.
    public func start() {
        guard !isRendering else { return }
        uiStateMachine.start()
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let frames = FrameWriter(uiStateMachine: uiStateMachine, output: output, render: render, changes: continuation)
        frames.renderAndTrack()
        let loop = Task {
            for await _ in changes {
                frames.renderAndTrack()
            }
        }
        rendering.withLock { $0 = Rendering(loop: loop, changes: continuation) }
    }

    /// Stops rendering; no frame is written afterwards. ``start()`` renders again. The UI
    /// machine keeps observing its machine.
    public func stop() {
        let stopped = rendering.withLock { rendering in
            defer { rendering = Rendering() }
            return rendering
        }
        stopped.loop?.cancel()
        stopped.changes?.finish()
    }
}

/// Renders frames for one rendering session. It holds no reference to the view, so the
/// render loop does not keep the view alive.
@MainActor
private final class FrameWriter<UIState: Equatable, SuperEvent> {
    let uiStateMachine: UIStateMachine<UIState, SuperEvent>
    let output: any TerminalOutput
    let render: (UIState) -> [String]
    let changes: AsyncStream<Void>.Continuation
    var lastFrame: TerminalFrame?

    init(
        uiStateMachine: UIStateMachine<UIState, SuperEvent>,
        output: any TerminalOutput,
        render: @escaping (UIState) -> [String],
        changes: AsyncStream<Void>.Continuation
    ) {
        self.uiStateMachine = uiStateMachine
        self.output = output
        self.render = render
        self.changes = changes
    }

    /// Renders the current state, writes it if it differs from the last frame, and asks
    /// to be told about the next change of what the rendering read.
    func renderAndTrack() {
        let changes = self.changes
        let lines = withObservationTracking {
            render(uiStateMachine.state)
        } onChange: {
            changes.yield()
        }
        let frame = TerminalFrame(lines: lines)
        guard frame != lastFrame else { return }
        lastFrame = frame
        output.write(frame: frame)
    }
}
