internal import CDuktape
import StateMachineHierarchy
import StateMachineSCXML

/// A document's compiled sources: the bytecode of each, which every session of the document
/// loads into its own heap the first time it runs it.
///
/// `@unchecked Sendable`: the C program is immutable once compiled (sessions only read its
/// bytecode), and it is freed only when the last reference (this object, which each session
/// keeps) goes away.
final class ECMAScriptProgram: SCXMLCompiledScripts, @unchecked Sendable {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        scxml_js_program_free(pointer)
    }

    /// A fresh heap with the host's system variables.
    func makeSession(_ host: SCXMLDataModelHost) throws(SCXMLScriptFailure) -> any SCXMLDataModelSession {
        try ECMAScriptSession(program: self, host: host)
    }
}
