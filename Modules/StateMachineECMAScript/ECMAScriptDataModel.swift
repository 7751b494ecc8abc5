internal import CDuktape
import StateMachineHierarchy
import StateMachineSCXML

/// The engine behind `SCXMLDataModel.ecmascript`: compiles a document's sources once, into
/// bytecode its sessions load on first use.
package struct ECMAScriptDataModel: SCXMLDataModelEngine {
    /// The bounds of compiling and of every session.
    package var limits: ECMAScriptLimits

    /// The engine, with `limits` (the standard ones unless a test needs others).
    package init(limits: ECMAScriptLimits = .standard) {
        self.limits = limits
    }

    /// `"ecmascript"`.
    package var name: String { "ecmascript" }

    /// Compiles every source in a scratch heap. A `<script>` or a location with a syntax
    /// error throws, naming it; a value or a condition with one compiles into a failure its
    /// evaluation reports (`SyntaxError: ...`), since SCXML makes that an `error.execution`.
    package func compile(_ sources: [SCXMLScriptSource]) throws(SCXMLScriptFailure) -> any SCXMLCompiledScripts {
        // One buffer for every text, so that each C source can point into it.
        var storage: [UInt8] = []
        var ranges: [(kind: Int32, offset: Int, length: Int)] = []
        ranges.reserveCapacity(sources.count)
        for source in sources {
            let offset = storage.count
            storage.append(contentsOf: Self.compilable(source).utf8)
            ranges.append((Self.kind(source.kind), offset, storage.count - offset))
        }
        storage.append(0)
        var failedIndex = 0
        var message: UnsafeMutablePointer<CChar>?
        let cLimits = scxml_js_limits(memory_limit: limits.memoryPerSession, time_limit_ms: limits.milliseconds)
        let compiled = storage.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let cSources = ranges.map { scxml_js_source(kind: $0.kind, text: base + $0.offset, length: $0.length) }
            return cSources.withUnsafeBufferPointer {
                scxml_js_compile($0.baseAddress, $0.count, cLimits, &failedIndex, &message)
            }
        }
        // SIZE_MAX (-1 as an Int) means no source is to blame (out of memory).
        guard let compiled else {
            let text = message.map { String(cString: $0) } ?? "the scripts did not compile"
            scxml_js_free(message)
            throw SCXMLScriptFailure(index: failedIndex < 0 ? nil : failedIndex, message: text)
        }
        return ECMAScriptProgram(pointer: compiled)
    }

    /// The text to compile: an expression written as a statement (`expr="new f();"`, as
    /// documents do) loses its trailing semicolons, since a value or condition is one
    /// expression; other sources as written.
    static func compilable(_ source: SCXMLScriptSource) -> String {
        guard source.kind == .value || source.kind == .condition else { return source.text }
        var text = Substring(source.text)
        while let last = text.last, last == ";" || last.isWhitespace { text = text.dropLast() }
        return String(text)
    }

    private static func kind(_ kind: SCXMLScriptSource.Kind) -> Int32 {
        switch kind {
        case .value: Int32(SCXML_JS_VALUE.rawValue)
        case .condition: Int32(SCXML_JS_CONDITION.rawValue)
        case .location: Int32(SCXML_JS_LOCATION.rawValue)
        case .script: Int32(SCXML_JS_SCRIPT.rawValue)
        }
    }
}
