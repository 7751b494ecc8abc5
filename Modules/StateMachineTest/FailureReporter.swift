import Testing
import XCTest

/// Where an assertion was written, in the forms both test frameworks need.
public struct AssertionLocation: Sendable {
    /// `#fileID` of the assertion.
    public let fileID: String
    /// `#filePath` of the assertion.
    public let file: StaticString
    /// `#line` of the assertion.
    public let line: UInt
    /// `#column` of the assertion.
    public let column: UInt

    /// A location from its parts (the defaults of the assertion functions fill them).
    public init(fileID: String, file: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.file = file
        self.line = line
        self.column = column
    }

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(file)", line: Int(line), column: Int(column))
    }
}

/// An XCTest-style failure function: `(message, file, line)`, the shape of `XCTFail`.
/// Pass your own to the assertion functions to observe failures (a spy) instead of failing.
public typealias FailFunction = @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void

/// How an assertion failure is recorded.
struct FailureReporter: Sendable {
    let record: @Sendable (_ message: String, _ location: AssertionLocation) -> Void

    /// Fails the running XCTest test case.
    static let xcTest = FailureReporter { message, location in
        XCTFail(message, file: location.file, line: location.line)
    }

    /// Records an `Issue` in the running Swift Testing test at the assertion's location.
    static let swiftTesting = FailureReporter { message, location in
        Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
    }

    /// Hands failures to a user's failure function.
    static func custom(_ fail: @escaping FailFunction) -> FailureReporter {
        FailureReporter { message, location in fail(message, location.file, location.line) }
    }
}
