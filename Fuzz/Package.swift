// swift-tools-version: 6.0
// libFuzzer targets for the project's parsers and loaders, in a package of their own so
// that the main build never needs the fuzzer runtime. Build and run them with
// `scripts/fuzz TARGET [SECONDS]` (it passes -sanitize=fuzzer,address and
// -parse-as-library: libFuzzer supplies `main`). Each target's harness is the file the
// root package's FuzzRegressionTests replay kept inputs through (linked, not copied).
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the repository
// was cloned into; read it instead of assuming it.
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Fuzz
    .deletingLastPathComponent()  // the repository
    .lastPathComponent

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["CLibFuzzer"] + products.map { .product(name: $0, package: repository) },
        path: "Sources/\(name)"
    )
}

let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        fuzzTarget("FuzzSCXML", ["StateMachineHierarchy", "StateMachineSCXML", "StateMachineECMAScript"]),
        fuzzTarget("FuzzJSONChart", ["StateMachineHierarchy"]),
        fuzzTarget("FuzzSnapshot", ["StateMachineHierarchy", "StateMachineSCXML"]),
        fuzzTarget("FuzzChartSemantics", ["StateMachineHierarchy", "StateMachineSCXML"]),
        fuzzTarget("FuzzExport", ["StateMachineHierarchy", "StateMachineSCXML", "StateMachineECMAScript"]),
        // The Navigation sample's features and the apps' parsers live in targets that are no
        // products (nothing a user imports): their files are linked in.
        fuzzTarget("FuzzDeepLink", ["StateMachineCore"]),
        fuzzTarget("FuzzCommands", []),
    ],
    swiftLanguageModes: [.v6]
)
