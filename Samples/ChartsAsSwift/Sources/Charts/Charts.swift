// The charts of this folder become classes at build time (the ChartCompilerPlugin):
// vending.scxml → Vending, player.chart.json → Player, turnstile-fleet.scxml → TurnstileFleet,
// and generated-01.scxml ... generated-06.scxml → Generated01 ... Generated06 (charts of the
// project's semantics fuzzer, exported from the typed DSL; see GeneratedFuzzChartsTests).
import StateMachineSCXML

/// The charts this package compiles, by file name, for the tests that load them at run time.
public enum ChartFiles {
    /// The SCXML text of each compiled SCXML chart.
    public static let scxml: [String: String] = [
        "vending.scxml": Vending.text,
        "turnstile-fleet.scxml": TurnstileFleet.text,
    ]
}
