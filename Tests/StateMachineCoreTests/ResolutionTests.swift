import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

extension StateType where S == DataIsIdle {
    static var isIdle: Self { StateType(DataIsIdle.self) }
}

extension EventType where E == DidRequestLoading {
    static var loadingWasRequested: Self { EventType(DidRequestLoading.self) }
}

extension StateSetType where SuperState == FeatureState {
    static var isIdle: Self { StateSetType(DataIsIdle.self) }
    static var isLoaded: Self { StateSetType(DataIsLoaded.self) }
}

extension EventSetType where SuperEvent == FeatureEvent {
    static var reloadingWasRequested: Self { EventSetType(DidRequestReloading.self) }
    static var didTick: Self { EventSetType(DidTick.self) }
}

@Suite("Transition resolution")
struct ResolutionTests {
    @Test("the DSL expands When x On into one route per (state, event) pair, state-major")
    func expansion() async throws {
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(states: DataIsIdle.self, DataIsLoaded.self) {
                On(events: DidRequestLoading.self, DidRequestReloading.self) { _, _ in
                    Transition(state: DataIsLoading(id: "1"))
                }
            }
        }
        #expect(machine.routedPairCount == 4)
        let resolved = try #require(
            await machine.resolveTransition(state: DataIsLoaded(data: ""), event: DidRequestLoading(id: ""))
        )
        #expect(resolved.diagnostic.declarationOrder == 2)
        #expect(resolved.diagnostic.stateTypeName.hasSuffix("DataIsLoaded"))
        #expect(resolved.diagnostic.eventTypeName.hasSuffix("DidRequestLoading"))
    }

    @Test("every pair of a table that grew finds its own routes, and unrouted pairs find none")
    func tableLookupAfterGrowth() async throws {
        let states: [any State<FeatureState>] = [
            DataIsIdle(), DataIsLoading(id: ""), DataIsLoaded(data: ""),
            DataIsInFailure(id: "", error: LoadingFailed()),
        ]
        let events: [any Event<FeatureEvent>] = [
            DidRequestLoading(id: ""), DidRequestReloading(), DidSucceedToLoad(data: ""),
            DidFailToLoad(error: LoadingFailed()),
        ]
        // 4 x 3 routed pairs (more than the first 8 buckets hold at half load); DidTick unrouted.
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(states: DataIsIdle.self, DataIsLoading.self, DataIsLoaded.self, DataIsInFailure.self) {
                On(events: DidRequestLoading.self, DidRequestReloading.self, DidSucceedToLoad.self) { _, _ in
                    Transition(state: DataIsIdle())
                }
            }
            When(states: DataIsIdle.self, DataIsLoading.self, DataIsLoaded.self, DataIsInFailure.self) {
                On(events: DidFailToLoad.self) { _, _ in Transition(state: DataIsIdle()) }
            }
        }
        #expect(machine.routedPairCount == 16)
        for (stateIndex, state) in states.enumerated() {
            for (eventIndex, event) in events.enumerated() {
                let resolved = try #require(await machine.resolveTransition(state: state, event: event))
                // State-major within each When: the first When declares 4 x 3 routes.
                let expected = eventIndex < 3 ? stateIndex * 3 + eventIndex : 12 + stateIndex
                #expect(resolved.diagnostic.declarationOrder == expected)
                #expect(resolved.diagnostic.stateTypeName == String(reflecting: type(of: state)))
                #expect(resolved.diagnostic.eventTypeName == String(reflecting: type(of: event)))
            }
            #expect(await machine.resolveTransition(state: state, event: DidTick()) == nil)
        }
    }

    @Test("an event with no route resolves to nothing")
    func noRoute() async {
        let machine = loadingMachine()
        #expect(await machine.transition(state: DataIsIdle(), event: DidSucceedToLoad(data: "")) == nil)
        #expect(await machine.transition(state: DataIsLoaded(data: ""), event: DidTick()) == nil)
    }

    @Test("the first route whose guard passes wins and later routes are not evaluated")
    func firstPassingRouteWins() async throws {
        let evaluated = Recorder<String>()
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, event in
                    event.id == "a"
                } transition: { _, _ in
                    let _ = evaluated.append("first")
                    Transition(state: DataIsLoading(id: "first"))
                }
                On(event: DidRequestLoading.self) { _, _ in
                    let _ = evaluated.append("second")
                    Transition(state: DataIsLoading(id: "second"))
                }
                On(event: DidRequestLoading.self) { _, _ in
                    let _ = evaluated.append("third")
                    Transition(state: DataIsLoading(id: "third"))
                }
            }
        }
        let refused = try #require(await machine.transition(state: DataIsIdle(), event: DidRequestLoading(id: "b")))
        #expect(await refused.transition?.state() as? DataIsLoading == DataIsLoading(id: "second"))
        #expect(evaluated.all == ["second"])
        let accepted = try #require(await machine.transition(state: DataIsIdle(), event: DidRequestLoading(id: "a")))
        #expect(await accepted.transition?.state() as? DataIsLoading == DataIsLoading(id: "first"))
    }

    @Test("matching is by exact type: a route never applies to another state type")
    func exactTypes() async {
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidTick.self) { _, _ in Transition(state: DataIsLoaded(data: "")) }
            }
        }
        #expect(await machine.transition(state: DataIsLoaded(data: ""), event: DidTick()) == nil)
        #expect(await machine.transition(state: DataIsIdle(), event: DidTick()) != nil)
    }

    @Test("tokens, builder sets and OneOf sets name the same routes as metatypes")
    func tokensAndSets() async throws {
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: .isIdle) {
                On(event: .loadingWasRequested) { state, event in
                    Transition(state: DataIsLoading(id: event.id))
                }
            }
            When(states: .isIdle, .isLoaded) {
                On(events: .reloadingWasRequested) { _, _ in Transition(state: DataIsLoading(id: "reload")) }
            }
            When {
                DataIsLoading.self
                DataIsInFailure.self
            } transitions: {
                On {
                    DidTick.self
                    DidRequestReloading.self
                } transition: { _, _ in
                    Transition(state: DataIsIdle())
                }
            }
        }
        #expect(machine.routedPairCount == 1 + 2 + 4)
        #expect(
            await machine.transition(state: DataIsIdle(), event: DidRequestLoading(id: "7"))?.transition?.state()
                as? DataIsLoading == DataIsLoading(id: "7")
        )
        #expect(
            await machine.transition(state: DataIsLoaded(data: ""), event: DidRequestReloading())?.transition?.state()
                as? DataIsLoading == DataIsLoading(id: "reload")
        )
        #expect(
            await machine.transition(state: DataIsInFailure(id: "", error: LoadingFailed()), event: DidTick())?
                .transition?.state() is DataIsIdle
        )
        #expect(
            OneOfStates<FeatureState>(DataIsIdle.self, DataIsLoaded.self, DataIsIdle.self)
                == OneOfStates {
                    DataIsLoaded.self
                    DataIsIdle.self
                }
        )
        #expect(OneOfStates<FeatureState>(DataIsIdle.self, DataIsIdle.self).keys.count == 1)
        #expect(OneOfEvents<FeatureEvent>(DidTick.self) != OneOfEvents<FeatureEvent>(DidRequestReloading.self))
    }

    @Test("imperative registration returns a new machine and keeps declaration order")
    func imperativeRegistration() async throws {
        let base = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle())
        let machine =
            base
            .when(state: DataIsIdle.self, on: DidTick.self) { _, _ in
                false
            } mealyTransition: { _, _ in
                MealyTransition(transition: Transition(state: DataIsLoaded(data: "guarded")))
            }
            .when(state: DataIsIdle.self, on: DidTick.self, synchronously: nil) { _, _ in
                MealyTransition(transition: Transition(state: DataIsLoaded(data: "sync")))
            }
            .when(OneOfStates(DataIsLoaded.self), on: OneOfEvents(DidTick.self, DidRequestReloading.self)) { _, _ in
                MealyTransition(transition: Transition(state: DataIsIdle()))
            }
        #expect(base.routedPairCount == 0)
        #expect(machine.routedPairCount == 3)
        let resolved = try #require(await machine.resolveTransition(state: DataIsIdle(), event: DidTick()))
        #expect(await resolved.transition.transition?.state() as? DataIsLoaded == DataIsLoaded(data: "sync"))
        #expect(resolved.diagnostic.declarationOrder == 1)
    }

    @Test("a route may produce only an output: the state stays")
    func outputOnlyRoute() async throws {
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidTick.self) { _, _ in Output { DidRequestLoading(id: "from output") } }
            }
        }
        let transition = try #require(await machine.transition(state: DataIsIdle(), event: DidTick()))
        #expect(transition.transition == nil)
        #expect(transition.output != nil)
    }
}
