// swift-tools-version: 6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "SwiftStateMachine",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineCore", targets: ["StateMachineCore"]),
        .library(name: "StateMachineTest", targets: ["StateMachineTest"]),
        .library(name: "StateMachineTable", targets: ["StateMachineTable"]),
        .library(name: "StateMachineHierarchy", targets: ["StateMachineHierarchy"]),
        .library(name: "StateMachineBroadcast", targets: ["StateMachineBroadcast"]),
        .library(name: "StateMachineDump", targets: ["StateMachineDump"]),
        .library(name: "StateMachineUI", targets: ["StateMachineUI"]),
        .library(name: "SwiftStateMachine", targets: ["SwiftStateMachine"]),
        // The Navigation sample's features (deep links and machines), for the Fuzz package.
        .library(name: "NavigationFeatures", targets: ["NavigationFeatures"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
        .executable(name: "CaseStudies", targets: ["CaseStudies"]),
        .executable(name: "Navigation", targets: ["Navigation"]),
        .executable(name: "statechart", targets: ["StatechartTool"]),
    ],
    targets: [
        // MARK: Libraries
        .target(name: "StateMachineCore", path: "Modules/StateMachineCore", swiftSettings: swiftSettings),
        .target(
            name: "StateMachineTest",
            dependencies: ["StateMachineCore"],
            path: "Modules/StateMachineTest",
            swiftSettings: swiftSettings
        ),
        .target(name: "StateMachineTable", path: "Modules/StateMachineTable", swiftSettings: swiftSettings),
        .target(name: "StateMachineHierarchy", path: "Modules/StateMachineHierarchy", swiftSettings: swiftSettings),
        .target(
            name: "StateMachineBroadcast",
            dependencies: ["StateMachineCore"],
            path: "Modules/StateMachineBroadcast",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StateMachineDump",
            dependencies: ["StateMachineCore"],
            path: "Modules/StateMachineDump",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StateMachineUI",
            dependencies: ["StateMachineCore"],
            path: "Apps/StateMachineUI",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SwiftStateMachine",
            dependencies: [
                "StateMachineCore", "StateMachineTest", "StateMachineTable", "StateMachineHierarchy",
                "StateMachineBroadcast", "StateMachineDump", "StateMachineUI",
            ],
            path: "Modules/SwiftStateMachine",
            swiftSettings: swiftSettings
        ),

        // MARK: Sample features (the state machines the apps show)
        .target(
            name: "CaseStudiesFeatures",
            dependencies: ["StateMachineCore"],
            path: "Samples/CaseStudiesFeatures",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NavigationFeatures",
            dependencies: ["StateMachineCore"],
            path: "Samples/NavigationFeatures",
            swiftSettings: swiftSettings
        ),

        // MARK: Terminal layer shared by the apps
        // No `pkgConfig:`: readline.pc's Cflags (-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600, from
        // ncurses) are flags SwiftPM prohibits and warns about on every build. The headers are
        // in the default include path and the module map links `readline`; scripts/setup
        // installs libreadline-dev where it is missing.
        .systemLibrary(name: "CReadline", path: "Apps/CReadline"),
        // Counts the Benchmarks executable's heap allocations (glibc symbol interposition).
        .target(name: "CAllocationCounter", path: "Apps/CAllocationCounter"),
        .target(
            name: "Terminal",
            dependencies: ["CReadline", "StateMachineCore", "StateMachineDump"],
            path: "Apps/Terminal",
            swiftSettings: swiftSettings
        ),

        // MARK: Apps
        .target(
            name: "CaseStudiesScreens",
            dependencies: [
                "Terminal", "StateMachineUI", "CaseStudiesFeatures", "StateMachineCore", "StateMachineDump",
                "StateMachineTable", "StateMachineHierarchy",
            ],
            path: "Apps/CaseStudiesScreens",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CaseStudies",
            dependencies: ["CaseStudiesScreens", "Terminal", "StateMachineDump"],
            path: "Apps/CaseStudies",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NavigationScreens",
            dependencies: ["Terminal", "StateMachineUI", "NavigationFeatures", "StateMachineCore", "StateMachineDump"],
            path: "Apps/NavigationScreens",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Navigation",
            dependencies: ["NavigationScreens", "Terminal", "StateMachineDump"],
            path: "Apps/Navigation",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "StatechartToolKit",
            dependencies: ["Terminal", "StateMachineHierarchy"],
            path: "Apps/StatechartTool/Kit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "StatechartTool",
            dependencies: ["StatechartToolKit", "Terminal"],
            path: "Apps/StatechartTool/Main",
            swiftSettings: swiftSettings
        ),

        // MARK: Executables
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["CAllocationCounter", "StateMachineCore", "StateMachineTable", "StateMachineHierarchy"],
            path: "Apps/Benchmarks",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "StateMachineCoreTests",
            dependencies: ["StateMachineCore", "TestSupport"],
            path: "Tests/StateMachineCoreTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StateMachineTestTests",
            dependencies: ["StateMachineCore", "StateMachineTest"],
            path: "Tests/StateMachineTestTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CaseStudiesFeaturesTests",
            dependencies: ["CaseStudiesFeatures", "StateMachineCore", "StateMachineTest", "TestSupport"],
            path: "Tests/CaseStudiesFeaturesTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavigationFeaturesTests",
            dependencies: ["NavigationFeatures", "StateMachineCore", "StateMachineTest", "TestSupport"],
            path: "Tests/NavigationFeaturesTests",
            swiftSettings: swiftSettings
        ),
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .target(
            name: "TestSupport",
            dependencies: ["CPseudoTerminal", "StateMachineCore"],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CaseStudiesTests",
            dependencies: ["CaseStudiesScreens", "StateMachineCore", "StateMachineDump", "Terminal", "TestSupport"],
            path: "Tests/CaseStudiesTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavigationTests",
            dependencies: ["NavigationScreens", "NavigationFeatures", "Terminal", "TestSupport"],
            path: "Tests/NavigationTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StatechartToolTests",
            dependencies: ["StatechartToolKit", "StateMachineHierarchy", "Terminal", "TestSupport"],
            path: "Tests/StatechartToolTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ReadmeTests",
            dependencies: [
                "TestSupport", "StateMachineCore", "StateMachineTest", "StateMachineTable", "StateMachineHierarchy",
                "StateMachineBroadcast", "StateMachineDump", "StateMachineUI",
            ],
            path: "Tests/ReadmeTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TerminalTests",
            dependencies: ["Terminal"],
            path: "Tests/TerminalTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StateMachineTableTests",
            dependencies: ["StateMachineTable"],
            path: "Tests/StateMachineTableTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StateMachineHierarchyTests",
            dependencies: ["StateMachineHierarchy", "TestSupport"],
            path: "Tests/StateMachineHierarchyTests",
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StateMachineBroadcastTests",
            dependencies: ["StateMachineCore", "StateMachineBroadcast", "TestSupport"],
            path: "Tests/StateMachineBroadcastTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StateMachineDumpTests",
            dependencies: ["StateMachineCore", "StateMachineDump", "TestSupport"],
            path: "Tests/StateMachineDumpTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["StateMachineHierarchy", "NavigationFeatures", "Terminal"],
            path: "Tests/FuzzRegressionTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StateMachineUITests",
            dependencies: ["StateMachineCore", "StateMachineUI", "TestSupport"],
            path: "Tests/StateMachineUITests",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
