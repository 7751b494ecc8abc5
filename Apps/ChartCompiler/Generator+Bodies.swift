extension Generator {
    /// The members of a class that runs its document with an `SCXMLInterpreter`.
    func scxmlBody(declared: String, needsDataModel: Bool) -> String {
        let dataModelParameter = needsDataModel ? "dataModel: SCXMLDataModel" : "dataModel: SCXMLDataModel? = nil"
        let dataModelDoc =
            needsDataModel
            ? "the data model to run the document with (it needs one: `\(declared)`; `.ecmascript` from `StateMachineECMAScript`)"
            : "a data model for the document's expressions; it needs none (nil: the null data model)"
        return """
                /// The running session.
                public let interpreter: SCXMLInterpreter
                /// Each macrostep's trace, in order, for ``configurations``.
                private let traces: AsyncStream<[String]>
                private let continuation: AsyncStream<[String]>.Continuation

                /// A session of the chart, not started.
                /// - Parameters:
                ///   - dataModel: \(dataModelDoc).
                ///   - sources: what the document's `src` attributes may read; nothing by default.
                ///   - options: the interpreter's options.
                ///   - clock: the clock of the chart's delayed sends.
                /// - Throws: `SCXMLError` when the document does not load with `dataModel`.
                public init(
                    \(dataModelParameter),
                    sources: SCXMLSourcePolicy = .none,
                    options: StatechartOptions = .scxml,
                    clock: some StatechartClock = .continuous
                ) throws {
                    let document = try SCXMLDocument(xml: Self.text, dataModel: dataModel, sources: sources)
                    let (traces, continuation) = AsyncStream.makeStream(of: [String].self)
                    self.traces = traces
                    self.continuation = continuation
                    interpreter = SCXMLInterpreter(
                        document: document,
                        options: options,
                        clock: clock,
                        onMacrostep: { continuation.yield($0) }
                    )
                }

                deinit { continuation.finish() }

                /// Starts the session (its first macrostep enters the initial states).
                public func start() throws { try interpreter.start() }

                /// Sends `event` to the session and runs its macrostep.
                public func send(_ event: Event, data: SCXMLValue? = nil) throws {
                    try send(event.rawValue, data: data)
                }

                /// Sends `event.suffix` (`send(.coin, suffix: "dollar")` sends `coin.dollar`),
                /// which the transitions on `event` match by prefix.
                public func send(_ event: Event, suffix: String, data: SCXMLValue? = nil) throws {
                    try send(event.rawValue + "." + suffix, data: data)
                }

                private func send(_ name: String, data: SCXMLValue?) throws {
                    if let data { try interpreter.send(name, data: data) } else { try interpreter.send(name) }
                }

                /// Whether `state` is active.
                public func isActive(_ state: State) -> Bool { interpreter.isActive(state.rawValue) }

                /// The active states.
                public var configuration: Set<State> { Set(interpreter.activeStates.compactMap(State.init(rawValue:))) }

                /// The configuration after each macrostep, from the first (the start), in order.
                /// One iteration reads them all; a second one finds them already read.
                public var configurations: Configurations { Configurations(traces: traces) }


            """
    }

    /// The members of a class that runs its JSON chart with a `Statechart`.
    var jsonBody: String {
        """
                /// The running chart.
                public let chart: Statechart<String, String, String>
                /// Each step's configuration, in order, for ``configurations``.
                private let steps: AsyncStream<[String]>
                private let continuation: AsyncStream<[String]>.Continuation

                /// The chart, not started.
                /// - Parameters:
                ///   - options: the chart's options.
                ///   - clock: the clock of its delayed transitions.
                /// - Throws: `StatechartError` when the chart does not compile.
                public init(
                    options: StatechartOptions = StatechartOptions(),
                    clock: any StatechartClock = .continuous
                ) throws {
                    let definition = try Statechart<String, String, String>.definition(fromJSON: Self.text)
                    chart = try Statechart(definition, options: options, clock: clock)
                    (steps, continuation) = AsyncStream.makeStream(of: [String].self)
                }

                deinit { continuation.finish() }

                /// Starts the chart (it enters its initial states).
                public func start() {
                    chart.start()
                    continuation.yield(chart.activeStates)
                }

                /// Handles `event` (with `payload`) in one run-to-completion step.
                @discardableResult
                public func send(_ event: Event, payload: String? = nil) throws -> StatechartStepOutcome {
                    let outcome = try chart.handle(event.rawValue, payload: payload)
                    continuation.yield(chart.activeStates)
                    return outcome
                }

                /// Whether `state` is active.
                public func isActive(_ state: State) -> Bool { chart.isActive(state.rawValue) }

                /// The active states.
                public var configuration: Set<State> { Set(chart.activeStates.compactMap(State.init(rawValue:))) }

                /// The configuration after `start()` and after each `send`, in order. One
                /// iteration reads them all; a second one finds them already read.
                public var configurations: AsyncMapSequence<AsyncStream<[String]>, Set<State>> {
                    steps.map { Set($0.compactMap(State.init(rawValue:))) }
                }


            """
    }

    /// The `Configurations` sequence of an SCXML class: folds each macrostep's `enter:`
    /// and `exit:` entries into the configuration.
    var configurationsType: String {
        guard case .scxml = engine else { return "" }
        return """
                /// The configurations the session reaches, one per macrostep, in order: each
                /// macrostep's `enter:` and `exit:` trace entries applied to the one before.
                public struct Configurations: AsyncSequence, Sendable {
                    /// A configuration: the active states.
                    public typealias Element = Set<State>
                    fileprivate let traces: AsyncStream<[String]>

                    /// Iterates over the configurations.
                    public func makeAsyncIterator() -> Iterator { Iterator(traces: traces.makeAsyncIterator()) }

                    /// Applies each macrostep's trace to the configuration before it.
                    public struct Iterator: AsyncIteratorProtocol {
                        fileprivate var traces: AsyncStream<[String]>.Iterator
                        fileprivate var active: [String] = []

                        /// The configuration after the next macrostep; nil once the session is gone.
                        public mutating func next() async -> Set<State>? {
                            guard let trace = await traces.next() else { return nil }
                            for entry in trace {
                                if entry.hasPrefix("enter:") {
                                    active.append(String(entry.dropFirst(6)))
                                } else if entry.hasPrefix("exit:"), let position = active.lastIndex(of: String(entry.dropFirst(5))) {
                                    active.remove(at: position)
                                }
                            }
                            return Set(active.compactMap(State.init(rawValue:)))
                        }
                    }
                }

            """
    }
}
