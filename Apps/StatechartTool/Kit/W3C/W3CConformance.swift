import Foundation
import StateMachineHierarchy
import StateMachineSCXML

/// Runs the W3C SCXML 1.0 conformance tests (the Implementation Report Plan's, converted
/// from `.txml` by ``W3CConverter``) through ``SCXMLDocument`` and ``SCXMLInterpreter``.
///
/// A test passes when its machine reaches the top-level final state `pass`, and fails when
/// it reaches `fail`. The machine runs on a ``ManualStatechartClock`` that moves only when
/// the machine waits: after the start and after every timer, when the machine has not
/// finished, the clock jumps to the next pending timer (a delayed `<send>` of the machine or
/// of a session it invoked, which share the clock). So a test that waits 30 seconds for a
/// timeout takes no real time, and its outcome does not depend on the machine's speed. A
/// machine that waits with no timer pending, or whose next timer is beyond
/// ``Limits/simulatedTime``, has not finished.
public enum W3CConformance {
    /// How a test ended.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The machine reached the top-level final state `pass`.
        case pass
        /// The machine reached the top-level final state `fail`.
        case fail
        /// The machine did not reach either: why (it waits with no timer pending, its
        /// next timer is beyond the bound, it stopped on an error).
        case notFinished(String)
        /// A document could not be loaded: the load error.
        case loadError(String)
        /// A document could not be converted, or `xsltproc` left part of it out (see
        /// ``W3CConverter/Conversion/unappliedInstructions``), so the test was not run.
        case notConverted(String)

        /// `pass`, `fail`, or the kind and its reason (`not finished: ...`).
        public var description: String {
            switch self {
            case .pass: "pass"
            case .fail: "fail"
            case .notFinished(let reason): "not finished: \(reason)"
            case .loadError(let error): "load error: \(error)"
            case .notConverted(let reason): "not converted: \(reason)"
            }
        }
    }

    /// The bounds of one run.
    public struct Limits: Sendable, Equatable {
        /// How far the clock may move: a timer due later is never fired. The tests' longest
        /// delay is 30 seconds.
        public var simulatedTime: Duration
        /// How many times the clock may move (each fires the timers due at one instant).
        public var clockMoves: Int

        /// Limits of `simulatedTime` (60 s by default) and `clockMoves` (10,000).
        public init(simulatedTime: Duration = .seconds(60), clockMoves: Int = 10_000) {
            self.simulatedTime = simulatedTime
            self.clockMoves = clockMoves
        }
    }

    /// Loads the SCXML document at `url` offering `dataModel` (nil: the null data model only)
    /// and reading its sources by `sources`, and runs it (see ``run(_:limits:)``).
    public static func run(
        _ url: URL,
        dataModel: SCXMLDataModel? = nil,
        sources: SCXMLSourcePolicy = .documentFolder,
        limits: Limits = Limits()
    ) -> Outcome {
        let document: SCXMLDocument
        do {
            document = try SCXMLDocument.load(contentsOf: url, dataModel: dataModel, sources: sources)
        } catch {
            return .loadError("\(error)")
        }
        return run(document, limits: limits)
    }

    /// Runs `document` on a new ``ManualStatechartClock``, moving the clock to the next
    /// pending timer whenever the machine waits, until it finishes or a limit is reached.
    public static func run(_ document: SCXMLDocument, limits: Limits = Limits()) -> Outcome {
        let clock = ManualStatechartClock()
        let machine = SCXMLInterpreter(document: document, clock: clock, recordsTrace: false)
        do {
            try machine.start()
        } catch {
            return .notFinished("the machine stopped: \(error)")
        }
        // On a manual clock every macrostep, the children's included, runs on this thread:
        // when start() or advance(by:) returns, the machine waits.
        var moves = 0
        while !machine.isDone {
            if let failure = machine.failure { return .notFinished("the machine stopped: \(failure)") }
            let waiting = "waits in \(machine.activeAtomicStates.sorted()) at \(clock.now) of simulated time"
            guard let next = clock.nextDeadline else {
                return .notFinished("\(waiting) with no timer pending")
            }
            guard next <= limits.simulatedTime else {
                return .notFinished("\(waiting); its next timer, at \(next), is beyond \(limits.simulatedTime)")
            }
            guard moves < limits.clockMoves else {
                return .notFinished("\(waiting) after the clock moved \(limits.clockMoves) times")
            }
            moves += 1
            clock.advance(by: next - clock.now)
        }
        let final = machine.activeAtomicStates
        if final.contains("pass") { return .pass }
        if final.contains("fail") { return .fail }
        return .notFinished("it finished in \(final.sorted()), neither pass nor fail")
    }

    /// Runs the manifest test `test`: converts its documents and dependencies from the
    /// `.txml` folder `source` into a temporary folder (removed afterwards), then runs each
    /// of its documents. The outcome is `pass` when all of them pass, else the first other
    /// outcome (named by its file when the test has several documents).
    public static func run(
        _ test: W3CTest,
        from source: URL,
        converter: W3CConverter,
        dataModel: SCXMLDataModel? = nil,
        sources: SCXMLSourcePolicy = .documentFolder,
        limits: Limits = Limits()
    ) -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "w3c-\(test.name)-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let unapplied: [String: [String]]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            unapplied = try converter.prepare(test, from: source, into: folder)
        } catch {
            return .notConverted("\(error)")
        }
        if let (file, instructions) = unapplied.sorted(by: { $0.key < $1.key }).first {
            let names = instructions.map { "xsl:\($0)" }.joined(separator: ", ")
            return .notConverted(
                "\(file): \(W3CConverter.program) (XSLT 1.0) did not apply \(names) (XSLT 2.0) of \(converter.stylesheet.lastPathComponent)"
            )
        }
        for file in test.documents {
            let outcome = run(
                folder.appendingPathComponent(W3CConverter.convertedName(file)),
                dataModel: dataModel,
                sources: sources,
                limits: limits
            )
            guard outcome != .pass else { continue }
            guard test.documents.count > 1 else { return outcome }
            let prefix = W3CConverter.convertedName(file) + ": "
            switch outcome {
            case .notFinished(let reason): return .notFinished(prefix + reason)
            case .loadError(let error): return .loadError(prefix + error)
            case .notConverted(let reason): return .notConverted(prefix + reason)
            case .pass, .fail: return outcome
            }
        }
        return .pass
    }
}
