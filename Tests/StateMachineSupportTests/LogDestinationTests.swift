import StateMachineSupport
import Testing

@Suite("Log destination")
struct LogDestinationTests {
    @Test("unset, a program logs to the system log and a test process nowhere")
    func defaults() {
        #expect(LogDestination.resolve(environment: nil, isTestProcess: false) == .systemLog)
        #expect(LogDestination.resolve(environment: nil, isTestProcess: true) == .none)
        #expect(LogDestination.resolve(environment: "", isTestProcess: false) == .systemLog)
    }

    @Test("unset, a program with no system log listening logs nowhere; asked by name, it still tries")
    func noListener() {
        #expect(LogDestination.resolve(environment: nil, isTestProcess: false, systemLogListens: false) == .none)
        #expect(
            LogDestination.resolve(environment: "syslog", isTestProcess: false, systemLogListens: false) == .systemLog
        )
        #expect(
            LogDestination.resolve(environment: "stderr", isTestProcess: false, systemLogListens: false)
                == .standardError
        )
    }

    @Test(
        "STATE_MACHINE_LOG names the destination, in any case",
        arguments: [
            ("stderr", LogDestination.standardError), ("STDERR", .standardError), ("1", .standardError),
            ("syslog", .systemLog), ("journal", .systemLog), ("0", .none), ("off", .none), ("none", .none),
        ]
    )
    func named(value: String, destination: LogDestination) {
        #expect(LogDestination.resolve(environment: value, isTestProcess: true) == destination)
        #expect(LogDestination.resolve(environment: value, isTestProcess: false) == destination)
    }

    @Test("this test process is recognised as one")
    func testProcess() {
        #expect(LogDestination.isTestProcess)
    }
}
