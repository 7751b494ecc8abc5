import CLibPQ
import FoundationEssentials
import StateMachineSupport

#if canImport(Glibc)
import Glibc
#endif

/// Hears of posts to a store's machines: a connection of its own that LISTENs on the
/// store's channel (the inbox's trigger NOTIFYs it with the machine's key), on a thread of
/// its own that waits for the server, so that a `MachineWorker` wakes when an event is
/// posted instead of polling for it.
///
/// When the connection is lost, it reconnects with backoff and reports that posts may have
/// gone unnoticed meanwhile (``next(timeout:)`` returns nil once), so that the worker looks
/// for work itself.
final class PostgreSQLListener: @unchecked Sendable {
    // @unchecked Sendable: `connection` is used only by the listener's thread; `state` is
    // behind its lock (a pthread mutex); the wake pipe's ends are written from any thread and
    // read by the listener's thread, and closed by deinit only.

    /// What the thread and the callers share.
    struct State {
        /// Keys posted to since the last `next`.
        var keys: Set<String> = []
        /// Whether posts may have gone unnoticed (the listening connection was lost).
        var missed = true
        /// The caller waiting, and until when.
        var waiter: (continuation: CheckedContinuation<Set<String>?, Never>, deadline: ContinuousClock.Instant)?
        var stopping = false

        /// What a waiter gets now, taken from the state: nil when posts may have gone
        /// unnoticed, else the keys posted to, once there are any, the listener stops or the
        /// wait is `over`; `.none` while it must wait on.
        mutating func take(over: Bool) -> Set<String>?? {
            if missed {
                missed = false
                keys = []
                return .some(nil)
            }
            guard !keys.isEmpty || stopping || over else { return .none }
            defer { keys = [] }
            return .some(keys)
        }
    }

    private let state = Lock(State())
    private let connection: PostgreSQLConnection
    private let channel: String
    /// A pipe that ends the thread's wait: the end read (polled by the thread) and the end written.
    private let wakeDescriptors: (read: Int32, write: Int32)

    /// A listener on `channel` of the server `conninfo` names; its thread starts at once.
    init?(conninfo: String, server: String, channel: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        wakeDescriptors = (ends[0], ends[1])
        self.channel = channel
        connection = PostgreSQLConnection(conninfo: conninfo, server: server)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            nil,
            { context in
                let listener = Unmanaged<PostgreSQLListener>.fromOpaque(context!).takeRetainedValue()
                listener.listen()
                return nil
            },
            context
        )
        guard started == 0 else {
            Unmanaged<PostgreSQLListener>.fromOpaque(context).release()
            return nil
        }
        pthread_detach(thread)
    }

    /// Stops the thread (it closes its connection and lets go of the listener; the last
    /// reference closes the wake descriptor, so that no write can reach a reused one).
    func stop() {
        state.withLock { $0.stopping = true }
        wake()
    }

    /// The keys posted to since the last call, once there are any or `timeout` passed
    /// (empty), or nil when posts may have gone unnoticed. One caller at a time: a second
    /// one ends the first's wait with an empty set. The wait ends at once when the calling
    /// task is cancelled.
    func next(timeout: Duration) async -> Set<String>? {
        let deadline = ContinuousClock.now + timeout
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Set<String>?? = state.withLock { state in
                    // Cancelled before this: the handler below found no waiter to end.
                    if let ready = state.take(over: Task.isCancelled) { return ready }
                    state.waiter?.continuation.resume(returning: [])
                    state.waiter = (continuation, deadline)
                    return .none
                }
                if let ready {
                    continuation.resume(returning: ready)
                } else {
                    wake()  // The thread's wait ends at the new deadline.
                }
            }
        } onCancel: {
            state.withLock { $0.waiter?.deadline = .now }
            wake()
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeDescriptors.write, &byte, 1)
    }

    /// The thread: connects, LISTENs, and waits for notifications, the wake descriptor or
    /// the waiter's deadline, until stopped.
    private func listen() {
        var backoff = Duration.milliseconds(10)
        var retryAt: ContinuousClock.Instant?
        while true {
            if state.withLock({ $0.stopping }) { break }
            if !connection.isConnected, retryAt.map({ ContinuousClock.now >= $0 }) ?? true {
                do throws(PostgreSQLFailure) {
                    if let message = connection.connect() { throw .connectionLost(message) }
                    try connection.execute("LISTEN \(PostgreSQLStore.quote(channel))")
                    retryAt = nil
                    backoff = .milliseconds(10)
                } catch {
                    connection.disconnect()
                    retryAt = .now + backoff
                    backoff = min(backoff * 2, .milliseconds(500))
                }
                // Posts made while it was not listening went unnoticed.
                resolve { $0.missed = true }
            }
            // The socket is read while a caller waits (or after a wake): notifications that
            // arrive meanwhile wait in it and are read together, rather than each waking the
            // thread. Its first bytes after a lost connection are read then too.
            let waiter = state.withLock { $0.waiter?.deadline }
            var descriptors = [pollfd(fd: wakeDescriptors.read, events: Int16(POLLIN), revents: 0)]
            if waiter != nil, let socket = connection.socket {
                descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
            }
            let until = [waiter, retryAt].compactMap { $0 }.min()
            let milliseconds = until.map { Self.milliseconds($0 - .now) } ?? -1
            _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if descriptors[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wakeDescriptors.read, &bytes, bytes.count) > 0 {}
            }
            if descriptors.count > 1, descriptors[1].revents != 0 {
                let keys = connection.notifications()
                if let keys {
                    resolve { $0.keys.formUnion(keys) }
                } else {
                    connection.disconnect()
                    resolve { $0.missed = true }
                }
            } else {
                resolve { _ in }
            }
        }
        connection.disconnect()
        resolve { _ in }
    }

    deinit {
        close(wakeDescriptors.read)
        close(wakeDescriptors.write)
    }

    /// Changes the state, then ends the waiter's wait when it has news, its deadline passed
    /// or the listener stops.
    private func resolve(_ change: (inout State) -> Void) {
        let resumed: (CheckedContinuation<Set<String>?, Never>, Set<String>?)? = state.withLock { state in
            change(&state)
            guard let waiter = state.waiter,
                let keys = state.take(over: ContinuousClock.now >= waiter.deadline)
            else { return nil }
            state.waiter = nil
            return (waiter.continuation, keys)
        }
        if let (continuation, keys) = resumed { continuation.resume(returning: keys) }
    }

    /// `duration` in whole milliseconds for poll(2), rounded up, at least 0.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
