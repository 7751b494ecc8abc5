import Observation

/// The package's one terminal render loop: it draws, tracking the `@Observable` state the
/// drawing reads, and draws again after that state changes, a burst of changes costing one
/// drawing. `StateMachineView` (StateMachineUI) draws a UI machine's frames with it, and
/// the apps' `TerminalApp` (Terminal) draws its screens with it, so both behave alike.
///
/// Coalescing: a change schedules one drawing on the main actor, which first yields once;
/// every change before that drawing runs is folded into it, and it shows the latest state.
/// Observation tracking fires once per arming, so each drawing re-arms it.
///
/// Gating: while `mayDraw()` is false a change draws nothing and the loop is not re-armed;
/// its owner draws again with ``render()`` when it is ready (the apps hold frames back
/// while a piped command runs, so that transcripts do not depend on timing).
///
/// Lifetime: the loop holds its closures, and nothing holds the loop but its owner (the
/// scheduled drawings and the observation callbacks keep it weakly), so releasing the owner
/// ends the loop. After ``stop()`` it draws nothing more.
@MainActor
package final class RenderLoop {
    private let draw: @MainActor () -> Void
    private let mayDraw: @MainActor () -> Bool
    private var isScheduled = false

    /// Whether the loop still draws (until ``stop()``).
    package private(set) var isRunning = true

    /// A loop that runs `draw` (tracking what it reads) on ``render()`` and after every
    /// change of what it read, while `mayDraw()` allows it.
    package init(mayDraw: @escaping @MainActor () -> Bool = { true }, draw: @escaping @MainActor () -> Void) {
        self.draw = draw
        self.mayDraw = mayDraw
    }

    /// Draws now and re-arms the tracking, unless the loop is stopped.
    package func render() {
        guard isRunning else { return }
        withObservationTracking {
            draw()
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in self?.scheduleRender() }
        }
    }

    /// Draws nothing more: a change already scheduled is dropped.
    package func stop() {
        isRunning = false
    }

    /// Coalesces a burst of changes into one drawing, after one yield of the main actor.
    private func scheduleRender() {
        guard isRunning, !isScheduled, mayDraw() else { return }
        isScheduled = true
        Task { @MainActor [weak self] in
            await Task.yield()
            guard let self else { return }
            isScheduled = false
            // Checked again: the owner may have stopped the loop or closed the gate since.
            guard isRunning, mayDraw() else { return }
            render()
        }
    }
}
