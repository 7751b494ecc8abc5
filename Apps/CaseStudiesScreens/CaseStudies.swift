import Terminal

/// One case study of the home screen: its name (`open NAME`), its title and its screen.
public struct CaseStudy: Sendable {
    /// The name `open` takes (`elevator`).
    public let name: String
    /// The line the home screen shows (`Elevator sample (simple transitions)`).
    public let title: String
    /// Makes the case study's screen.
    let make: @MainActor @Sendable (CaseStudiesEnvironment) -> any Screen
}

extension CaseStudiesApp {
    /// The case studies, in the home screen's order (`open 1` is the first). A new case
    /// study is its feature file in `Samples/CaseStudiesFeatures` (or, for a chart the
    /// ChartCompilerPlugin compiles, its `.scxml` file here), its screen file here (with its
    /// `DiagramScreen` conformance), and one line below.
    public nonisolated static let caseStudies: [CaseStudy] = [
        CaseStudy(name: "clics-cancel", title: "Clics sample (cancel output)") {
            ClicsScreen(cancelling: true, environment: $0)
        },
        CaseStudy(name: "clics-continue", title: "Clics sample (continue output)") {
            ClicsScreen(cancelling: false, environment: $0)
        },
        CaseStudy(name: "counter", title: "Counter sample (mediator)") { CounterScreen(environment: $0) },
        CaseStudy(name: "elevator", title: "Elevator sample (simple transitions)") { ElevatorScreen(environment: $0) },
        CaseStudy(name: "analysis", title: "Analysis sample (simple output)") { AnalysisScreen(environment: $0) },
        CaseStudy(name: "wallet", title: "Wallet sample (shared state machine)") { WalletScreen(environment: $0) },
        CaseStudy(name: "turnstile", title: "Turnstile sample (transition table)") {
            TurnstileScreen(dumpMediator: $0.dumpMediator)
        },
        CaseStudy(name: "player", title: "Player sample (statechart with a parallel region)") {
            PlayerScreen(dumpMediator: $0.dumpMediator)
        },
        CaseStudy(name: "parking-meter", title: "Parking meter sample (SCXML chart compiled to Swift)") {
            ParkingMeterScreen(dumpMediator: $0.dumpMediator)
        },
    ]
}
