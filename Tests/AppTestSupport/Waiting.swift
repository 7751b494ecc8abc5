import Foundation
import Testing

/// Runs `body`, failing the test when it takes longer than `seconds` (a bound on a wait
/// for a fact, never a sleep).
public func within<T: Sendable>(
    seconds: Double = 20,
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil { Issue.record("\(what) did not happen within \(seconds) s", sourceLocation: sourceLocation) }
        return first
    }
}

/// The built executable next to the test bundle.
public func executable(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The test bundle itself is a directory on some platforms.
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
        directory.pathComponents.count > 1
    {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name)
}
