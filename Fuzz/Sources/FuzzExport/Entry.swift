import CLibFuzzer
import Foundation

/// The executable's entry point (SwiftPM calls it `FuzzExport_main`): libFuzzer's
/// driver, which calls the harness once per input.
@_cdecl("FuzzExport_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        ExportHarness.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
}
