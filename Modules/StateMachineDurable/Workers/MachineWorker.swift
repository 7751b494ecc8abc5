import FoundationEssentials

/// Serves the machines of a store that have work, in one process of many: run one in each
/// of several processes on one shared store (a ``DurableStore`` on a server) and they share
/// the machines.
///
/// Each round (every `pollInterval`) the worker asks the store for machines with work (an
/// event in the inbox, a timer due, an effect not delivered) that no other live process has
/// claimed, opens those it does not hold (claiming them: one worker per machine at a time),
/// and has the ones it holds apply their inbox and fire their due timers. A machine it held
/// without work for `idleRounds` rounds is closed, so that another worker may take it.
///
/// A worker that dies (killed, its host gone) loses its claims with its connection, and the
/// other workers take its machines over in their next round: within `pollInterval` plus the
/// time the server takes to see the connection gone. Events posted to a machine are applied in
/// the order its inbox accepted them, once: a machine is driven by one worker at a time, and
/// its inbox entry is removed by the commit that applies it.
///
/// ```swift
/// let worker = MachineWorker(store: store) { key in try orderForm() }
/// let serving = Task { await worker.run() }
/// // … until the process should stop:
/// serving.cancel()
/// await serving.value
/// ```
public actor MachineWorker<Form: DurableForm> {
    /// What the worker reports: a machine it could not open or drive, and why. The others go on.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The machine.
        public let key: String
        /// What went wrong.
        public let error: any Error

        /// `machine 'KEY': ERROR`.
        public var description: String { "machine '\(key)': \(error)" }
    }

    let store: any DurableStore
    let form: @Sendable (String) throws -> Form
    let options: DurableOptions
    let pollInterval: Duration
    let idleRounds: Int
    let batch: Int
    let onFailure: @Sendable (Failure) -> Void

    var held: [String: (machine: DurableMachine<Form>, idle: Int)] = [:]
    /// Machines that failed to open: the round from which to try again, the rounds waited
    /// last (doubling up to a hundred) and the error reported.
    var failed: [String: (retry: Int, wait: Int, message: String)] = [:]
    var round = 0

    /// A worker for `store`'s machines, each opened as the form `form` returns for its key.
    /// - Parameters:
    ///   - store: the store whose machines the worker serves (shared with other processes).
    ///   - options: how each machine is opened (its timer policy, a migration).
    ///   - pollInterval: how often the worker asks the store for work.
    ///   - idleRounds: after how many rounds without work a held machine is closed.
    ///   - batch: the most machines with work taken from the store in one round.
    ///   - onFailure: told of each machine that could not be opened or driven (a malformed
    ///     stored row, a definition that changed); the worker tries it again after a while.
    ///   - form: the form machine `key` is opened as.
    public init(
        store: any DurableStore,
        options: DurableOptions = DurableOptions(),
        pollInterval: Duration = .milliseconds(50),
        idleRounds: Int = 20,
        batch: Int = 256,
        onFailure: @escaping @Sendable (Failure) -> Void = { _ in },
        form: @escaping @Sendable (String) throws -> Form
    ) {
        self.store = store
        self.form = form
        self.options = options
        self.pollInterval = pollInterval
        self.idleRounds = idleRounds
        self.batch = batch
        self.onFailure = onFailure
    }

    /// The keys of the machines the worker holds.
    public var heldMachines: [String] { held.keys.sorted() }

    /// Serves until the calling task is cancelled, then closes the machines it holds.
    public func run() async {
        while !Task.isCancelled {
            await serveOneRound()
            try? await Task.sleep(for: pollInterval)
        }
        await closeAll()
    }

    /// One round: takes the machines with work and has each apply what it has.
    public func serveOneRound() async {
        round += 1
        let now: DurableInstant
        let keys: [String]
        do {
            now = try await store.now()
            keys = try await store.machinesWithWork(dueBy: now, limit: batch)
        } catch {
            // The store is unreachable (it reports and retries itself): try next round.
            return
        }
        var busy: Set<String> = []
        for key in keys {
            if let retry = failed[key]?.retry, retry > round { continue }
            busy.insert(key)
            if let entry = held[key] {
                do {
                    if store.clock == .manual { await entry.machine.clockAdvanced(to: now) }
                    try await entry.machine.pullInbox()
                    held[key]?.idle = 0
                    if await entry.machine.hasLostClaim { await drop(key, after: DurableError.claimLost(key: key)) }
                } catch {
                    await drop(key, after: error)
                }
            } else {
                await take(key)
            }
        }
        for (key, entry) in held where !busy.contains(key) {
            held[key]?.idle = entry.idle + 1
            if entry.idle + 1 >= idleRounds {
                held[key] = nil
                await entry.machine.close()
            }
        }
    }

    /// Opens machine `key`: its inbox, due timers and undelivered effects are taken up by the open.
    func take(_ key: String) async {
        do {
            let machine = try await store.open(key, try form(key), options: options)
            held[key] = (machine, 0)
            failed[key] = nil
        } catch DurableError.machineInUse {
            // Another worker took it first.
        } catch {
            // Back off: try again in a few rounds, doubling up to a hundred; report an error
            // once, not on every try.
            let message = "\(error)"
            let wait = min(100, 2 * (failed[key]?.wait ?? 1))
            if failed[key]?.message != message { onFailure(Failure(key: key, error: error)) }
            failed[key] = (round + wait, wait, message)
        }
    }

    /// Closes machine `key` after `error` (its claim lost, its commit refused).
    func drop(_ key: String, after error: any Error) async {
        guard let entry = held.removeValue(forKey: key) else { return }
        await entry.machine.close()
        onFailure(Failure(key: key, error: error))
    }

    func closeAll() async {
        let machines = held.values.map(\.machine)
        held = [:]
        for machine in machines { await machine.close() }
    }
}
