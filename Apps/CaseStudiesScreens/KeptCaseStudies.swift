import Observation
import StateMachineSupport
import TerminalMachines

/// What `--state FILE` keeps of the CaseStudies app: the wallet's credits and the counter's
/// units and tens, as JSON: `{"walletCents":1250,"units":12,"tens":1}`.
public struct KeptCaseStudies: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The wallet's credits, in cents.
    public var walletCents: Int
    /// The counter's units.
    public var units: UInt
    /// The counter's tens.
    public var tens: UInt

    /// The values of a first run: an empty wallet, a counter at 0.
    public init(walletCents: Int = 0, units: UInt = 0, tens: UInt = 0) {
        self.walletCents = walletCents
        self.units = units
        self.tens = tens
    }

    /// `wallet 1250 cents, units 12, tens 1`.
    public var description: String { "wallet \(walletCents) cents, units \(units), tens \(tens)" }
}

/// Keeps the wallet and the counter in the app's state file: reads their values from the
/// screens that show them (the values the frames show), and remembers the values saved,
/// which the wallet and a newly opened counter start at.
@MainActor
@Observable
final class CaseStudiesKeeper {
    /// The state file.
    @ObservationIgnored let file: StateFile<KeptCaseStudies>
    /// The values the wallet and the counter start at: the ones saved last. Read by the
    /// machines' factories, which run off the main actor.
    @ObservationIgnored let start: Lock<KeptCaseStudies>
    /// The Wallet screen last opened, while it lives (the wallet machine is a singleton:
    /// every Wallet screen shows the same credits).
    @ObservationIgnored weak var wallet: WalletScreen? {
        didSet { screensOpened += 1 }
    }
    /// The Counter screen last opened, while it lives.
    @ObservationIgnored weak var counter: CounterScreen? {
        didSet { screensOpened += 1 }
    }
    /// Counts the screens registered: read by ``value`` so that whoever tracks it reads the
    /// new screen's views from then on.
    private var screensOpened = 0

    /// A keeper of `file`, starting at what it stored.
    init(file: StateFile<KeptCaseStudies>) {
        self.file = file
        start = Lock(file.stored ?? KeptCaseStudies())
    }

    /// The values shown now. The wallet's is the first of its views that differs from the
    /// saved credits (its views follow one machine: one that differs shows a newer state);
    /// a screen that is gone shows what was saved last.
    var value: KeptCaseStudies {
        _ = screensOpened
        var value = file.saved ?? start.withLock { $0 }
        if let wallet {
            let saved = value.walletCents
            value.walletCents = wallet.shownCents.first { $0 != saved } ?? saved
        }
        if let counter {
            (value.units, value.tens) = counter.shownValues
        }
        return value
    }

    /// Saves the values from now on; a failed save is told to `report`. The file then
    /// holds the keeper (and the keeper the file) for as long as the app runs.
    func follow(reporting report: @escaping @MainActor (String) -> Void) {
        file.onSave = { [start] saved in start.withLock { $0 = saved } }
        file.follow({ self.value }, report: report)
    }
}
