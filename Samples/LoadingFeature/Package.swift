// swift-tools-version: 6.0
// A client of the SwiftStateMachine package, as a user's app would be: it depends on the
// repository by path and uses single products: StateMachineCore and StateMachineTest, and the
// companions (Broadcast, Dump, UI) in the README example tests.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the repository
// was cloned into (SwiftStateMachine, main, ...); read it instead of assuming it.
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // LoadingFeature
    .deletingLastPathComponent()  // Samples
    .deletingLastPathComponent()  // the repository
    .lastPathComponent

let package = Package(
    name: "LoadingFeature",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        .target(
            name: "LoadingFeature",
            dependencies: [.product(name: "StateMachineCore", package: repository)]
        ),
        .executableTarget(
            name: "LoadingDemo",
            dependencies: ["LoadingFeature", .product(name: "StateMachineCore", package: repository)]
        ),
        .testTarget(
            name: "LoadingFeatureTests",
            dependencies: [
                "LoadingFeature",
                .product(name: "StateMachineCore", package: repository),
                .product(name: "StateMachineTest", package: repository),
                .product(name: "StateMachineBroadcast", package: repository),
                .product(name: "StateMachineDump", package: repository),
                .product(name: "StateMachineUI", package: repository),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
