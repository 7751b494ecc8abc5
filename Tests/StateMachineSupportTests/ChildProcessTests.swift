import Foundation
import PostgreSQLTestCluster
import StateMachineSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tests' ways of starting a child process (all through `spawn_process`) close every
/// descriptor of the test process in the child but its standard ones, also those that are
/// not close-on-exec. Regression: a CaseStudies app in a CI run never saw the end of its
/// input (a Foundation `Pipe`): a child the tests started meanwhile could inherit its write
/// end and hold it (`EndToEndTests.endOfInputBesideAnotherChild` in CaseStudiesTests).
@Suite("Children of the tests")
struct ChildProcessTests {
    /// An inheritable pipe, as Foundation's `Pipe` makes them, closed at the end.
    final class InheritablePipe {
        let descriptors: [Int32]
        /// What `/proc` shows for the pipe (`pipe:[inode]`).
        let target: String

        init() throws {
            var descriptors: [Int32] = [0, 0]
            guard pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
            self.descriptors = descriptors
            target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptors[1])")
        }

        deinit { for descriptor in descriptors { close(descriptor) } }

        /// Whether process `pid` holds an end of this pipe.
        func isHeld(by pid: pid_t) throws -> Bool {
            let folder = "/proc/\(pid)/fd"
            return try FileManager.default.contentsOfDirectory(atPath: folder).contains { name in
                // A descriptor the child closes meanwhile (its own, while it starts) is not ours.
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) == target
            }
        }
    }

    @Test("a PipedProcess child holds none of the test's inheritable descriptors")
    func pipedProcess() throws {
        let leaked = try InheritablePipe()
        let child = try PipedProcess(path: "/bin/sleep", arguments: ["60"], initial: 0) { _, _ in }
        defer { kill(child.processIdentifier, SIGKILL) }
        #expect(try !leaked.isHeld(by: child.processIdentifier))
        #expect(try leaked.isHeld(by: getpid()), "the check sees the pipe where it is open")
    }

    @Test("a SpawnedApp child holds none of the test's inheritable descriptors")
    func spawnedApp() throws {
        let leaked = try InheritablePipe()
        let child = try SpawnedApp(URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"])
        defer { child.kill() }
        #expect(try !leaked.isHeld(by: child.processIdentifier))
    }

    @Test("a child of PostgreSQLCluster.spawn holds none of the test's inheritable descriptors")
    func clusterSpawn() throws {
        let leaked = try InheritablePipe()
        let child = try PostgreSQLCluster.spawn(["/bin/sleep", "60"])
        defer {
            kill(child, SIGKILL)
            PostgreSQLCluster.waitForExit(child)
        }
        #expect(try !leaked.isHeld(by: child))
    }
}
