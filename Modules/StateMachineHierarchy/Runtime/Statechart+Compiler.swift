// Turns a `Definition` into a `Model`: flattens the tree, checks every rule that
// TBStateMachine reported with TBSMException (and a few it left undefined), and
// precomputes each transition's scope and entry plan.

extension Statechart {
    struct Compiler {
        let definition: Definition
        let prefixMatching: Bool
        /// `TransitionDomain.leastCommonCompoundAncestor`: see ``domain(_:)``; a history target
        /// counts as the state it leads to.
        let compoundDomains: Bool
        /// `ParallelCompletion.everyRegionInFinalState`.
        let completesThroughChildren: Bool
        var states: [CompiledStateDraft] = []
        var regions: [RegionNode] = []
        var stateIndex: [StateID: Int32] = [:]
        var switches: [Switch] = []
        /// Regions whose spec has an initial transition, with that spec.
        var regionSpecs: [(Int32, RegionSpec)] = []

        struct CompiledStateDraft {
            var id: StateID
            var name: String
            var path: String
            var parent: Int32
            var kind: StateKind
            var regions: [Int32]
            var enter: Action?
            var exit: Action?
            var handlers: [HandlerSpec]
            var joinsToReset: [Int32] = []
            var isFinal: Bool
            var histories: [HistorySpec]
            var deferred: [EventID]
            var task: StateTask?
        }

        init(_ definition: Definition, options: StatechartOptions = StatechartOptions()) {
            self.definition = definition
            prefixMatching = options.eventMatching == .prefix
            compoundDomains = options.transitionDomain == .leastCommonCompoundAncestor
            completesThroughChildren = options.parallelCompletion == .everyRegionInFinalState
        }

        mutating func compile() throws -> Model {
            guard !definition.name.isEmpty else {
                throw StatechartError.emptyName(what: "A statechart", location: "the root region")
            }
            _ = try flatten(definition.root, name: definition.name, owner: -1, pathPrefix: "", depth: 1)

            var pseudoNames: Set<String> = []
            func claim(_ name: String, _ what: String) throws {
                guard !name.isEmpty else {
                    throw StatechartError.emptyName(what: what, location: "chart '\(definition.name)'")
                }
                guard pseudoNames.insert(name).inserted else { throw StatechartError.duplicatePseudoState(name: name) }
            }

            // Forks
            var forkInfo: [String: (region: Int32, targets: [Int32])] = [:]
            for fork in definition.forks {
                try claim(fork.name, "A fork")
                let region = try parallelState(fork.region, pseudoState: fork.name)
                guard !fork.targets.isEmpty else {
                    throw StatechartError.invalidCompoundTransition(
                        pseudoState: fork.name,
                        reason: "it has no target states"
                    )
                }
                var targets: [Int32] = []
                var usedRegions: [Int32: Int32] = [:]
                for id in fork.targets {
                    let target = try lookup(id, referencedBy: "fork '\(fork.name)'")
                    let regionOfTarget = try regionInside(region, containing: target, pseudoState: fork.name)
                    if let other = usedRegions[regionOfTarget] {
                        throw StatechartError.invalidCompoundTransition(
                            pseudoState: fork.name,
                            reason:
                                "targets '\(states[Int(other)].path)' and '\(states[Int(target)].path)' lie in the same region '\(regions[Int(regionOfTarget)].name)'"
                        )
                    }
                    usedRegions[regionOfTarget] = target
                    targets.append(target)
                }
                forkInfo[fork.name] = (region, targets)
            }

            // Joins
            var joins: [JoinNode] = []
            var joinInfo: [String: (index: Int32, region: Int32, sources: [Int32], target: Int32)] = [:]
            for join in definition.joins {
                try claim(join.name, "A join")
                let region = try parallelState(join.region, pseudoState: join.name)
                guard !join.sources.isEmpty else {
                    throw StatechartError.invalidCompoundTransition(
                        pseudoState: join.name,
                        reason: "it has no source states"
                    )
                }
                var sources: [Int32] = []
                for id in join.sources {
                    let source = try lookup(id, referencedBy: "join '\(join.name)'")
                    _ = try regionInside(region, containing: source, pseudoState: join.name)
                    if !sources.contains(source) { sources.append(source) }
                }
                let target = try lookup(join.target, referencedBy: "join '\(join.name)'")
                let index = Int32(joins.count)
                joins.append(JoinNode(name: join.name, sources: sources))
                joinInfo[join.name] = (index, region, sources, target)
                states[Int(region)].joinsToReset.append(index)
            }

            // Junctions
            var junctionNames: [String] = []
            var junctionGuards: [[Guard]] = []
            var junctionActions: [[Action?]] = []
            var junctionInfo: [String: (index: Int32, targets: [Int32])] = [:]
            for junction in definition.junctions {
                try claim(junction.name, "A junction")
                guard !junction.paths.isEmpty else {
                    throw StatechartError.invalidJunction(junction: junction.name, reason: "it has no outgoing paths")
                }
                let targets = try junction.paths.map {
                    try lookup($0.target, referencedBy: "junction '\(junction.name)'")
                }
                junctionInfo[junction.name] = (Int32(junctionNames.count), targets)
                junctionNames.append(junction.name)
                junctionGuards.append(junction.paths.map(\.guardBlock))
                junctionActions.append(junction.paths.map(\.action))
            }

            // Histories
            var histories: [HistoryNode] = []
            var historyDefaultActions: [Action?] = []
            var historyInfo: [String: (index: Int32, owner: Int32, defaultTarget: Int32?)] = [:]
            for ownerIndex in states.indices {
                let owner = Int32(ownerIndex)
                for history in states[ownerIndex].histories {
                    try claim(history.name, "A history")
                    var defaultTarget: Int32?
                    if let id = history.defaultTarget {
                        let target = try lookup(id, referencedBy: "history '\(history.name)'")
                        guard target != owner, isAncestorOrSelf(owner, of: target) else {
                            throw StatechartError.invalidHistory(
                                history: history.name,
                                reason:
                                    "its default '\(states[Int(target)].path)' is not inside '\(states[ownerIndex].path)'"
                            )
                        }
                        defaultTarget = target
                    }
                    var defaultPairs = defaultTarget.map { plan(below: states[ownerIndex].regions, to: $0) } ?? []
                    for id in history.extraDefaultTargets {
                        let target = try lookup(id, referencedBy: "history '\(history.name)'")
                        defaultPairs += plan(below: states[ownerIndex].regions, to: target)
                    }
                    historyInfo[history.name] = (Int32(histories.count), owner, defaultTarget)
                    histories.append(
                        HistoryNode(
                            name: history.name,
                            owner: owner,
                            kind: history.kind,
                            regions: history.kind == .shallow ? states[ownerIndex].regions : regionsBelow(owner),
                            defaultRegions: defaultPairs.map(\.0),
                            defaultStates: defaultPairs.map(\.1),
                            hasDefaultAction: history.defaultAction != nil
                        )
                    )
                    historyDefaultActions.append(history.defaultAction)
                }
            }

            // Event indexes: the user's events first, then one synthetic event for eventless
            // transitions, one per state whose done event is handled, one per delayed transition.
            var eventIndex: [EventID: Int32] = [:]
            for state in states {
                for handler in state.handlers {
                    guard case .event(let first) = handler.trigger else { continue }
                    for event in [first] + handler.extraEvents where eventIndex[event] == nil {
                        eventIndex[event] = Int32(eventIndex.count)
                    }
                }
                for event in state.deferred where eventIndex[event] == nil {
                    eventIndex[event] = Int32(eventIndex.count)
                }
            }
            let userEventCount = eventIndex.count
            var userEventNames = [String](repeating: "", count: userEventCount)
            for (id, index) in eventIndex { userEventNames[Int(index)] = statechartName(id) }
            // With prefix matching, every user event is a class: the handlers listed under
            // event `c` are those with a descriptor that matches the name `c`.
            let matching = EventClasses(names: userEventNames, enabled: prefixMatching)
            var syntheticNames: [String] = []
            func newSyntheticEvent(_ name: String) -> Int32 {
                syntheticNames.append(name)
                return Int32(userEventCount + syntheticNames.count - 1)
            }
            var eventlessEvent: Int32 = -1
            var doneEvents = [Int32](repeating: -1, count: states.count)
            var timers: [TimerNode] = []
            var stateTimers = [[Int32]](repeating: [], count: states.count)

            // Handlers, in state order then registration order.
            var handlers: [HandlerNode] = []
            var handlerNames: [String] = []
            var guards: [Guard?] = []
            var actions: [Action?] = []
            var handlerEvents: [[Int32]] = []
            /// Per handler, the names of the events it names (nil for eventless, delayed and done handlers).
            var handlerDescriptors: [[String]?] = []
            for sourceIndex in states.indices {
                let source = Int32(sourceIndex)
                let sourceName = states[sourceIndex].name
                for handler in states[sourceIndex].handlers {
                    let event: Int32
                    let eventName: String
                    var listedUnder: [Int32]?
                    switch handler.trigger {
                    case .event(let id):
                        eventName = statechartName(id)
                        for other in [id] + handler.extraEvents where statechartName(other).isEmpty {
                            throw StatechartError.emptyName(
                                what: "An event",
                                location: "a handler of state '\(states[sourceIndex].path)'"
                            )
                        }
                        event = eventIndex[id]!
                        let own = ([id] + handler.extraEvents).map { eventIndex[$0]! }
                        listedUnder = matching.classes(matchedByAnyOf: own)
                    case .eventless:
                        eventName = "eventless"
                        if eventlessEvent < 0 { eventlessEvent = newSyntheticEvent(eventName) }
                        event = eventlessEvent
                    case .after(let delay):
                        eventName = "after \(delay) in \(sourceName)"
                        event = newSyntheticEvent(eventName)
                        stateTimers[sourceIndex].append(Int32(timers.count))
                        timers.append(TimerNode(state: source, event: event, delay: max(delay, .zero)))
                    case .done(let id):
                        let completing =
                            try id.map {
                                try lookup($0, referencedBy: "a done handler of '\(states[sourceIndex].path)'")
                            } ?? source
                        guard states[Int(completing)].kind != .simple else {
                            throw StatechartError.invalidTransition(
                                source: states[sourceIndex].path,
                                reason:
                                    "'\(states[Int(completing)].path)' is a simple state, so it raises no done event"
                            )
                        }
                        eventName = "done.state.\(states[Int(completing)].name)"
                        if doneEvents[Int(completing)] < 0 {
                            doneEvents[Int(completing)] = newSyntheticEvent(eventName)
                        }
                        event = doneEvents[Int(completing)]
                    }
                    let described = "the handler for event '\(eventName)' on '\(states[sourceIndex].path)'"
                    let effect: Effect
                    let name: String
                    switch handler.target {
                    case .state(let id) where !handler.extraTargets.isEmpty || compoundDomains:
                        let targets = try ([handler.target] + handler.extraTargets).map {
                            try resolveTarget($0, historyInfo: historyInfo, referencedBy: described)
                        }
                        if handler.kind == .internal {
                            guard targets.count == 1, case .state(source) = targets[0] else {
                                throw StatechartError.internalTransitionTargetMismatch(
                                    event: eventName,
                                    source: states[sourceIndex].path,
                                    target: statechartName(id)
                                )
                            }
                            effect = .internalAction
                        } else {
                            effect = .transition(
                                register(
                                    makeTargetSwitch(
                                        from: source,
                                        to: targets,
                                        kind: handler.kind,
                                        histories: histories
                                    )
                                )
                            )
                        }
                        name = "\(sourceName) --> \(targets.map { describe($0, histories) }.joined(separator: ","))"
                    case .history(let historyName) where compoundDomains:
                        let target = try resolveTarget(
                            handler.target,
                            historyInfo: historyInfo,
                            referencedBy: described
                        )
                        effect = .transition(
                            register(
                                makeTargetSwitch(from: source, to: [target], kind: handler.kind, histories: histories)
                            )
                        )
                        name = "\(sourceName) --> \(historyName)"
                    case .state(let id):
                        let target = try lookup(id, referencedBy: described)
                        if handler.kind == .internal {
                            guard target == source else {
                                throw StatechartError.internalTransitionTargetMismatch(
                                    event: eventName,
                                    source: states[sourceIndex].path,
                                    target: states[Int(target)].path
                                )
                            }
                            effect = .internalAction
                        } else {
                            effect = .transition(register(makeSwitch(from: source, to: target, kind: handler.kind)))
                        }
                        name = "\(sourceName) --> \(states[Int(target)].name)"
                    case .fork(let forkName):
                        guard let fork = forkInfo[forkName] else {
                            throw StatechartError.unknownPseudoState(name: forkName, referencedBy: described)
                        }
                        try rejectInternal(handler, event: eventName, source: source, pseudo: forkName)
                        effect = .fork(register(makeForkSwitch(from: source, into: fork.region, targets: fork.targets)))
                        let targetNames = fork.targets.map { states[Int($0)].name }.joined(separator: ",")
                        name = "\(sourceName) --> \(forkName) --> \(states[Int(fork.region)].name)/[\(targetNames)]"
                    case .join(let joinName):
                        guard let join = joinInfo[joinName] else {
                            throw StatechartError.unknownPseudoState(name: joinName, referencedBy: described)
                        }
                        try rejectInternal(handler, event: eventName, source: source, pseudo: joinName)
                        guard let slot = join.sources.firstIndex(of: source) else {
                            throw StatechartError.invalidCompoundTransition(
                                pseudoState: joinName,
                                reason:
                                    "'\(states[sourceIndex].path)' handles '\(eventName)' with the join but is not one of its sources"
                            )
                        }
                        effect = .join(
                            join: join.index,
                            slot: Int32(slot),
                            change: register(makeSwitch(from: source, to: join.target, kind: .external))
                        )
                        let sourceNames = join.sources.map { states[Int($0)].name }.joined(separator: ",")
                        name =
                            "\(states[Int(join.region)].name)/[\(sourceNames)] --> \(joinName) --> \(states[Int(join.target)].name)"
                    case .junction(let junctionName):
                        guard let junction = junctionInfo[junctionName] else {
                            throw StatechartError.unknownPseudoState(name: junctionName, referencedBy: described)
                        }
                        try rejectInternal(handler, event: eventName, source: source, pseudo: junctionName)
                        let firstPath = Int32(switches.count)
                        for target in junction.targets {
                            _ = register(makeSwitch(from: source, to: target, kind: .external))
                        }
                        effect = .junction(junction: junction.index, firstPath: firstPath)
                        let targetNames = junction.targets.map { states[Int($0)].name }.joined(separator: ",")
                        name = "\(sourceName) --> \(junctionName) --> [\(targetNames)]"
                    case .history(let historyName):
                        guard let history = historyInfo[historyName] else {
                            throw StatechartError.unknownPseudoState(name: historyName, referencedBy: described)
                        }
                        try rejectInternal(handler, event: eventName, source: source, pseudo: historyName)
                        effect = .history(
                            history: history.index,
                            remembered: register(makeSwitch(from: source, to: history.owner, kind: handler.kind)),
                            fallback: register(
                                makeSwitch(from: source, to: history.defaultTarget ?? history.owner, kind: handler.kind)
                            )
                        )
                        name = "\(sourceName) --> \(historyName)"
                    }
                    handlers.append(
                        HandlerNode(
                            source: source,
                            hasGuard: handler.guardBlock != nil,
                            hasAction: handler.action != nil,
                            effect: effect
                        )
                    )
                    handlerNames.append(name)
                    guards.append(handler.guardBlock)
                    actions.append(handler.action)
                    handlerEvents.append(listedUnder ?? [event])
                    if case .event(let id) = handler.trigger {
                        handlerDescriptors.append(([id] + handler.extraEvents).map(statechartName))
                    } else {
                        handlerDescriptors.append(nil)
                    }
                }
            }
            // With prefix matching, the done event raised for `onDone` handlers is also the
            // event named `done.state.<id>`: the handlers whose descriptors match that name
            // (`done`, `done.state`, `*`, the name itself) are listed under it too, as they are
            // for the same name in a chart without `onDone` (and in SCXML).
            if prefixMatching {
                for done in doneEvents where done >= 0 {
                    let name = syntheticNames[Int(done) - userEventCount]
                    for (handler, descriptors) in handlerDescriptors.enumerated() {
                        guard let descriptors, !handlerEvents[handler].contains(done),
                            descriptors.contains(where: {
                                EventClasses.matches(descriptor: EventClasses.normalized($0), event: name)
                            })
                        else { continue }
                        handlerEvents[handler].append(done)
                    }
                }
            }

            // Flat handler table: for each (state, event) slot, the handlers in registration order.
            let eventCount = userEventCount + syntheticNames.count
            var eventIDs = [EventID?](repeating: nil, count: userEventCount)
            for (id, index) in eventIndex { eventIDs[Int(index)] = id }
            var counts = [Int32](repeating: 0, count: states.count * eventCount + 1)
            for (index, handler) in handlers.enumerated() {
                for event in handlerEvents[index] {
                    counts[Int(handler.source) * eventCount + Int(event) + 1] += 1
                }
            }
            for slot in counts.indices.dropFirst() { counts[slot] += counts[slot - 1] }
            var fill = counts
            var list = [Int32](repeating: 0, count: Int(counts.last ?? 0))
            for (index, handler) in handlers.enumerated() {
                for event in handlerEvents[index] {
                    let slot = Int(handler.source) * eventCount + Int(event)
                    list[Int(fill[slot])] = Int32(index)
                    fill[slot] += 1
                }
            }

            // Done events: with prefix matching, every composite and parallel state raises
            // its `done.state.<id>` (SCXML), handled by whatever descriptor matches it.
            if prefixMatching {
                for index in states.indices where states[index].kind != .simple && doneEvents[index] < 0 {
                    doneEvents[index] = matching.eventClass(of: "done.state.\(states[index].name)") ?? -1
                }
            }

            // Default entries through an initial transition (SCXML): a switch per region.
            var regionDefaults = [Int32](repeating: -1, count: regions.count)
            var initialActions = [Action?](repeating: nil, count: regions.count)
            for (region, spec) in regionSpecs where !spec.initialTargets.isEmpty || spec.initialAction != nil {
                let owner = regions[Int(region)].parent
                let described = "the initial transition of region '\(regions[Int(region)].name)'"
                let targets = try spec.initialTargets.map {
                    try resolveTarget($0, historyInfo: historyInfo, referencedBy: described)
                }
                var pairs: [(Int32, Int32)] = []
                var entered: [Int32] = []
                for target in targets {
                    switch target {
                    case .state(let state):
                        let path = plan(below: [region], to: state)
                        guard !path.isEmpty else {
                            throw StatechartError.invalidTransition(
                                source: owner >= 0 ? states[Int(owner)].path : definition.name,
                                reason: "its initial state '\(states[Int(state)].path)' is not inside it"
                            )
                        }
                        pairs += path
                    case .history(let history):
                        entered.append(history)
                        let historyOwner = histories[Int(history)].owner
                        if historyOwner != owner { pairs += plan(below: [region], to: historyOwner) }
                    }
                }
                regionDefaults[Int(region)] = register(makeSwitch(scope: [region], plan: pairs, histories: entered))
                initialActions[Int(region)] = spec.initialAction
                if let first = pairs.first(where: { $0.0 == region })?.1 {
                    regions[Int(region)] = regions[Int(region)].withInitial(first)
                } else if let history = entered.first,
                    let first = zip(histories[Int(history)].defaultRegions, histories[Int(history)].defaultStates)
                        .first(where: { $0.0 == region })?.1
                {
                    regions[Int(region)] = regions[Int(region)].withInitial(first)
                }
            }

            let topology = Topology(
                name: definition.name,
                states: states.map {
                    StateNode(
                        name: $0.name,
                        hasEnter: $0.enter != nil,
                        hasExit: $0.exit != nil,
                        path: $0.path,
                        parent: $0.parent,
                        kind: $0.kind,
                        regions: $0.regions,
                        joinsToReset: $0.joinsToReset,
                        isFinal: $0.isFinal,
                        hasTask: $0.task != nil,
                        histories: historyIndexes(of: $0.path, in: histories),
                        timers: [],
                        deferred: $0.deferred.map { eventIndex[$0]! }
                    )
                }.enumerated().map { index, node in
                    var node = node
                    node.timers = stateTimers[index]
                    return node
                },
                regions: regions,
                handlers: handlers,
                handlerNames: handlerNames,
                switches: switches,
                joins: joins,
                junctionNames: junctionNames,
                eventNames: eventIDs.map { statechartName($0!) } + syntheticNames,
                eventCount: eventCount,
                handlerStart: counts,
                handlerList: list,
                histories: histories,
                timers: timers,
                eventlessEvent: eventlessEvent,
                doneEvents: doneEvents,
                userEventCount: userEventCount,
                regionDefaults: regionDefaults,
                hasInitialActions: initialActions.contains { $0 != nil },
                raisesEveryDoneEvent: prefixMatching,
                completesThroughChildren: completesThroughChildren
            )
            return Model(
                topology: topology,
                ids: states.map(\.id),
                enters: states.map(\.enter),
                exits: states.map(\.exit),
                tasks: states.map(\.task),
                guards: guards,
                actions: actions,
                junctionGuards: junctionGuards,
                junctionActions: junctionActions,
                eventIndex: eventIndex,
                eventIDs: eventIDs.map { $0! },
                stateIndex: stateIndex,
                matching: matching,
                initialActions: initialActions,
                historyDefaultActions: historyDefaultActions
            )
        }

        // MARK: Flattening

        /// Adds `spec`'s states (depth first, document order) and returns the new region's index.
        private mutating func flatten(
            _ spec: RegionSpec,
            name: String,
            owner: Int32,
            pathPrefix: String,
            depth: Int
        ) throws -> Int32 {
            guard !spec.states.isEmpty else { throw StatechartError.noInitialState(region: name) }
            guard depth <= StatechartLimits.maxNestingDepth else {
                throw StatechartError.nestingTooDeep(
                    path: pathPrefix + statechartName(spec.states[0].id),
                    limit: StatechartLimits.maxNestingDepth
                )
            }
            let regionIndex = Int32(regions.count)
            // Reserve the slot; the state list is known only after the children are flattened.
            regions.append(RegionNode(name: name, parent: owner, states: [], initial: -1))
            if !spec.initialTargets.isEmpty || spec.initialAction != nil { regionSpecs.append((regionIndex, spec)) }
            var members: [Int32] = []
            var initial: Int32?
            for node in spec.states {
                let stateName = statechartName(node.id)
                let path = pathPrefix + stateName
                guard !stateName.isEmpty else {
                    throw StatechartError.emptyName(what: "A state", location: "region '\(name)'")
                }
                // Paths name states as `a/b@1/c`: a name with either character would make
                // its own path (snapshots, `state(at:)`) mean another state or none.
                if stateName.contains("/") || stateName.contains("@") {
                    throw StatechartError.invalidPath(
                        path: path,
                        component: stateName,
                        reason: "a state name may not contain '/' or '@', which separate the parts of a path"
                    )
                }
                let index = Int32(states.count)
                if let existing = stateIndex[node.id] {
                    throw StatechartError.duplicateState(
                        name: stateName,
                        firstPath: states[Int(existing)].path,
                        secondPath: path
                    )
                }
                stateIndex[node.id] = index
                let kind: StateKind
                switch node.content {
                case .simple: kind = .simple
                case .composite: kind = .composite
                case .parallel: kind = .parallel
                }
                states.append(
                    CompiledStateDraft(
                        id: node.id,
                        name: stateName,
                        path: path,
                        parent: regionIndex,
                        kind: kind,
                        regions: [],
                        enter: node.enter,
                        exit: node.exit,
                        handlers: node.handlers,
                        isFinal: node.isFinal,
                        histories: node.histories,
                        deferred: node.deferred,
                        task: node.task
                    )
                )
                if node.isFinal, !node.handlers.isEmpty {
                    throw StatechartError.invalidTransition(
                        source: path,
                        reason: "a final state has no outgoing transitions"
                    )
                }
                if case .simple = node.content, let history = node.histories.first {
                    throw StatechartError.invalidHistory(
                        history: history.name,
                        reason: "'\(path)' is a simple state; only composite and parallel states have a history"
                    )
                }
                members.append(index)
                if let wanted = spec.initial, wanted == node.id { initial = index }
                switch node.content {
                case .simple:
                    break
                case .composite(let inner):
                    let child = try flatten(
                        inner,
                        name: "\(stateName)SubMachine",
                        owner: index,
                        pathPrefix: path + "/",
                        depth: depth + 1
                    )
                    states[Int(index)].regions = [child]
                case .parallel(let inners):
                    guard !inners.isEmpty else {
                        throw StatechartError.noInitialState(region: "\(stateName)SubMachine-0")
                    }
                    var children: [Int32] = []
                    for (position, inner) in inners.enumerated() {
                        children.append(
                            try flatten(
                                inner,
                                name: "\(stateName)SubMachine-\(position)",
                                owner: index,
                                pathPrefix: path + "@\(position)/",
                                depth: depth + 1
                            )
                        )
                    }
                    states[Int(index)].regions = children
                }
            }
            if let wanted = spec.initial, initial == nil {
                throw StatechartError.unknownInitialState(region: name, state: statechartName(wanted))
            }
            regions[Int(regionIndex)] = RegionNode(
                name: name,
                parent: owner,
                states: members,
                initial: initial ?? members[0]
            )
            return regionIndex
        }

        /// The histories owned by the state at `path`.
        private func historyIndexes(of path: String, in histories: [HistoryNode]) -> [Int32] {
            histories.indices.filter { states[Int(histories[$0].owner)].path == path }.map(Int32.init)
        }

        /// Every region below `state`, at any depth, in document order.
        private func regionsBelow(_ state: Int32) -> [Int32] {
            var result: [Int32] = []
            for region in states[Int(state)].regions {
                result.append(region)
                for member in regions[Int(region)].states { result += regionsBelow(member) }
            }
            return result
        }

        // MARK: Lookups

        private func lookup(_ id: StateID, referencedBy: String) throws -> Int32 {
            guard let index = stateIndex[id] else {
                throw StatechartError.unknownState(name: statechartName(id), referencedBy: referencedBy)
            }
            return index
        }

        private func parallelState(_ id: StateID, pseudoState: String) throws -> Int32 {
            let index = try lookup(id, referencedBy: "pseudo state '\(pseudoState)'")
            guard states[Int(index)].kind == .parallel else {
                throw StatechartError.invalidCompoundTransition(
                    pseudoState: pseudoState,
                    reason: "its region '\(states[Int(index)].path)' is not a parallel state"
                )
            }
            return index
        }

        /// The region of the parallel state `parallel` that contains `state` (at any depth).
        private func regionInside(_ parallel: Int32, containing state: Int32, pseudoState: String) throws -> Int32 {
            var current = state
            while true {
                let region = states[Int(current)].parent
                let owner = regions[Int(region)].parent
                if owner == parallel { return region }
                if owner < 0 {
                    throw StatechartError.invalidCompoundTransition(
                        pseudoState: pseudoState,
                        reason: "'\(states[Int(state)].path)' is not inside its region '\(states[Int(parallel)].path)'"
                    )
                }
                current = owner
            }
        }

        private func rejectInternal(_ handler: HandlerSpec, event: String, source: Int32, pseudo: String) throws {
            if handler.kind == .internal {
                throw StatechartError.internalTransitionTargetMismatch(
                    event: event,
                    source: states[Int(source)].path,
                    target: pseudo
                )
            }
        }

        // MARK: Scopes and plans

        /// The regions from the root down to (and including) the region holding `state`.
        private func regionChain(_ state: Int32) -> [Int32] {
            var chain: [Int32] = []
            var region = states[Int(state)].parent
            while region >= 0 {
                chain.append(region)
                let owner = regions[Int(region)].parent
                region = owner < 0 ? -1 : states[Int(owner)].parent
            }
            return chain.reversed()
        }

        private func isAncestorOrSelf(_ ancestor: Int32, of state: Int32) -> Bool {
            var current = state
            while true {
                if current == ancestor { return true }
                let owner = regions[Int(states[Int(current)].parent)].parent
                if owner < 0 { return false }
                current = owner
            }
        }

        /// TBStateMachine's LCA: walking the source's ancestry upwards, the first region that
        /// also contains the target. Only regions (machines) can be an LCA, never a state.
        private func leastCommonRegion(_ source: Int32, _ target: Int32) -> Int32 {
            let targetChain = Set(regionChain(target))
            for region in regionChain(source).reversed() where targetChain.contains(region) {
                return domain(region)
            }
            return 0  // Every state lies under the root region.
        }

        /// With `TransitionDomain.leastCommonCompoundAncestor` a transition's scope is the
        /// region of its least common *compound* ancestor: a parallel state's region (SCXML's
        /// child of `<parallel>`) widens to the region holding the parallel state.
        private func domain(_ region: Int32) -> Int32 {
            guard compoundDomains else { return region }
            var current = region
            while true {
                let owner = regions[Int(current)].parent
                guard owner >= 0, states[Int(owner)].kind == .parallel else { return current }
                current = states[Int(owner)].parent
            }
        }

        /// A target as the compiler resolves it: a state or a history pseudo state.
        enum ResolvedTarget: Equatable {
            case state(Int32)
            case history(Int32)
        }

        private func resolveTarget(
            _ target: Target,
            historyInfo: [String: (index: Int32, owner: Int32, defaultTarget: Int32?)],
            referencedBy: String
        ) throws -> ResolvedTarget {
            switch target {
            case .state(let id):
                return .state(try lookup(id, referencedBy: referencedBy))
            case .history(let name):
                guard let history = historyInfo[name] else {
                    throw StatechartError.unknownPseudoState(name: name, referencedBy: referencedBy)
                }
                return .history(history.index)
            case .fork(let name), .join(let name), .junction(let name):
                throw StatechartError.invalidCompoundTransition(
                    pseudoState: name,
                    reason: "it is one of several targets of \(referencedBy); only states and histories can be"
                )
            }
        }

        private func describe(_ target: ResolvedTarget, _ histories: [HistoryNode]) -> String {
            switch target {
            case .state(let state): states[Int(state)].name
            case .history(let history): histories[Int(history)].name
            }
        }

        /// A transition to several targets (states or histories) entered together: its scope
        /// is the least common region of the source and every target (a history counts as
        /// its owner, or as the owner's region when the source lies inside the owner), and
        /// its plan leads to each target.
        private func makeTargetSwitch(
            from source: Int32,
            to targets: [ResolvedTarget],
            kind: StatechartTransitionKind,
            histories: [HistoryNode]
        ) -> Switch {
            var chains: [[Int32]] = []
            var anchors: [Int32] = []
            var entered: [Int32] = []
            for target in targets {
                switch target {
                case .state(let state):
                    chains.append(regionChain(state))
                    anchors.append(state)
                case .history(let history):
                    let owner = histories[Int(history)].owner
                    entered.append(history)
                    anchors.append(owner)
                    let ownerRegions = states[Int(owner)].regions
                    if isAncestorOrSelf(owner, of: source), states[Int(owner)].kind == .composite {
                        chains.append(regionChain(owner) + ownerRegions)
                    } else {
                        chains.append(regionChain(owner))
                    }
                }
            }
            var scope: [Int32]
            let sourceIsContainer = states[Int(source)].kind == .composite
            if kind == .local, sourceIsContainer,
                targets.allSatisfy({ target in
                    switch target {
                    case .state(let state): state != source && isAncestorOrSelf(source, of: state)
                    case .history(let history): isAncestorOrSelf(source, of: histories[Int(history)].owner)
                    }
                })
            {
                scope = states[Int(source)].regions
            } else {
                let sourceChain = regionChain(source)
                var common = 0
                for (depth, region) in sourceChain.enumerated().reversed()
                where chains.allSatisfy({ $0.count > depth && $0[depth] == region }) {
                    common = Int(region)
                    break
                }
                scope = [domain(Int32(common))]
            }
            var pairs: [(Int32, Int32)] = []
            for anchor in anchors { pairs += plan(below: scope, to: anchor) }
            return makeSwitch(scope: scope, plan: pairs, histories: entered)
        }

        /// The (region, state) pairs from just below one of `scope` down to `target`; empty
        /// when the target is not below the scope (it is then entered through initial states).
        func plan(below scope: [Int32], to target: Int32) -> [(Int32, Int32)] {
            var pairs: [(Int32, Int32)] = []
            var current = target
            while true {
                let region = states[Int(current)].parent
                pairs.append((region, current))
                if scope.contains(region) { return pairs.reversed() }
                let owner = regions[Int(region)].parent
                if owner < 0 { return [] }
                current = owner
            }
        }

        private func makeSwitch(from source: Int32, to target: Int32, kind: StatechartTransitionKind) -> Switch {
            var scope = [leastCommonRegion(source, target)]
            if kind == .local {
                let sourceContainsTarget = isAncestorOrSelf(source, of: target)
                if sourceContainsTarget || isAncestorOrSelf(target, of: source) {
                    let container = sourceContainsTarget ? source : target
                    let contained = sourceContainsTarget ? target : source
                    switch states[Int(container)].kind {
                    case .composite:
                        scope = states[Int(container)].regions
                    case .parallel where container == contained:
                        // Semantics and decisions, "Local transitions on parallel states": a local
                        // self-transition on a parallel state keeps the state and restarts every region.
                        scope = states[Int(container)].regions
                    case .parallel:
                        // Same decision: only the region holding the contained vertex is left.
                        scope = [regionChain(contained).first { regions[Int($0)].parent == container }!]
                    case .simple:
                        // A local self-transition on a simple state behaves as an external one (same decision).
                        break
                    }
                }
            }
            return makeSwitch(scope: scope, plan: plan(below: scope, to: target))
        }

        private func makeForkSwitch(from source: Int32, into parallel: Int32, targets: [Int32]) -> Switch {
            let scope = [leastCommonRegion(source, parallel)]
            var pairs = plan(below: scope, to: parallel)
            for target in targets {
                pairs += plan(below: states[Int(parallel)].regions, to: target)
            }
            return makeSwitch(scope: scope, plan: pairs)
        }

        /// Stores `change` in the switch table and returns its index.
        private mutating func register(_ change: Switch) -> Int32 {
            switches.append(change)
            return Int32(switches.count - 1)
        }

        private func makeSwitch(scope: [Int32], plan: [(Int32, Int32)], histories: [Int32] = []) -> Switch {
            Switch(
                scope: scope,
                planRegions: plan.map(\.0),
                planStates: plan.map(\.1),
                scopeName: regions[Int(scope[0])].name,
                histories: histories
            )
        }
    }
}
