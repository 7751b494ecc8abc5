import StateMachineSupport

extension Statechart {
    /// The compiled forms of one ``Definition``, by the options that change compilation:
    /// a reference, so that copies of the definition share it until one is edited.
    final class CompiledCache: Sendable {
        /// The options the compiler reads (the others only change how a chart runs).
        struct Key: Hashable, Sendable {
            let prefixMatching: Bool
            let compoundDomains: Bool
            let completesThroughChildren: Bool

            init(_ options: StatechartOptions) {
                prefixMatching = options.eventMatching == .prefix
                compoundDomains = options.transitionDomain == .leastCommonCompoundAncestor
                completesThroughChildren = options.parallelCompletion == .everyRegionInFinalState
            }
        }

        let models = Lock<[Key: Model]>([:])
    }
}
