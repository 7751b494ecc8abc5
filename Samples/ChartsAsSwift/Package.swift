// swift-tools-version: 6.0
// A client of the SwiftStateMachine package that compiles its charts into typed Swift with the
// ChartCompilerPlugin: the charts in Sources/Charts become classes at build time, and the
// tests check that each takes the same steps as the chart loaded at run time.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the repository
// was cloned into (SwiftStateMachine, main, ...); read it instead of assuming it.
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ChartsAsSwift
    .deletingLastPathComponent()  // Samples
    .deletingLastPathComponent()  // the repository
    .lastPathComponent

let package = Package(
    name: "ChartsAsSwift",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        .target(
            name: "Charts",
            dependencies: [
                .product(name: "StateMachineSCXML", package: repository),
                .product(name: "StateMachineHierarchy", package: repository),
                .product(name: "StateMachineECMAScript", package: repository),
            ],
            plugins: [.plugin(name: "ChartCompilerPlugin", package: repository)]
        ),
        .testTarget(
            name: "ChartsTests",
            dependencies: [
                "Charts",
                .product(name: "StateMachineSCXML", package: repository),
                .product(name: "StateMachineHierarchy", package: repository),
                .product(name: "StateMachineECMAScript", package: repository),
            ],
            // Read by the tests from their folder: the steps of the generated charts.
            exclude: ["GeneratedSteps"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
