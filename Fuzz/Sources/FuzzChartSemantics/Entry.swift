import CLibFuzzer
import Foundation

/// The executable's entry point (SwiftPM calls it `FuzzChartSemantics_main`): libFuzzer's
/// driver, which calls the harness once per input.
@_cdecl("FuzzChartSemantics_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        ChartSemanticsHarness.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
}
