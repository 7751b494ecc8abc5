// swift-tools-version: 6.0
// SwiftStateMachine, licensed under the Apache License, Version 2.0 (see LICENSE at the
// repository's root). Copyright 2026 The SwiftStateMachine authors.
import PackageDescription

/// The settings every Swift target of the package builds with.
let packageSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

extension Target {
    /// A library target with the package's Swift settings.
    static func library(
        _ name: String,
        path: String,
        dependencies: [Target.Dependency] = [],
        plugins: [Target.PluginUsage]? = nil
    ) -> Target {
        .target(
            name: name,
            dependencies: dependencies,
            path: path,
            swiftSettings: packageSwiftSettings,
            plugins: plugins
        )
    }

    /// An executable target with the package's Swift settings.
    static func executable(_ name: String, path: String, dependencies: [Target.Dependency] = []) -> Target {
        .executableTarget(name: name, dependencies: dependencies, path: path, swiftSettings: packageSwiftSettings)
    }

    /// The test target `Tests/<name>`, with the package's Swift settings.
    static func tests(_ name: String, dependencies: [Target.Dependency], resources: [Resource]? = nil) -> Target {
        .testTarget(
            name: name,
            dependencies: dependencies,
            path: "Tests/\(name)",
            resources: resources,
            swiftSettings: packageSwiftSettings
        )
    }
}

let package = Package(
    name: "SwiftStateMachine",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineCore", targets: ["StateMachineCore"]),
        .library(name: "StateMachineTest", targets: ["StateMachineTest"]),
        .library(name: "StateMachineGraph", targets: ["StateMachineGraph"]),
        .library(name: "StateMachineTable", targets: ["StateMachineTable"]),
        .library(name: "StateMachineHierarchy", targets: ["StateMachineHierarchy"]),
        .library(name: "StateMachineBroadcast", targets: ["StateMachineBroadcast"]),
        .library(name: "StateMachineDump", targets: ["StateMachineDump"]),
        .library(name: "StateMachineUI", targets: ["StateMachineUI"]),
        .library(name: "StateMachineSCXML", targets: ["StateMachineSCXML"]),
        .library(name: "StateMachineECMAScript", targets: ["StateMachineECMAScript"]),
        .library(name: "StateMachineDurable", targets: ["StateMachineDurable"]),
        .library(name: "StateMachineDurableSCXML", targets: ["StateMachineDurableSCXML"]),
        .library(name: "StateMachinePostgreSQL", targets: ["StateMachinePostgreSQL"]),
        .library(name: "SwiftStateMachine", targets: ["SwiftStateMachine"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
        .executable(name: "CaseStudies", targets: ["CaseStudies"]),
        .executable(name: "Navigation", targets: ["Navigation"]),
        .executable(name: "statechart", targets: ["StatechartTool"]),
        .plugin(name: "ChartCompilerPlugin", targets: ["ChartCompilerPlugin"]),
    ],
    targets: [
        // MARK: Libraries
        // Package-internal (no product): the one lock type and the one diagram model and
        // renderers, shared by the products below through `package` access.
        .library("StateMachineSupport", path: "Modules/StateMachineSupport", dependencies: ["CSpawn"]),
        // The one way a child process is started (Graphviz's `dot`, the tests' children):
        // every descriptor but its standard ones is closed in it.
        .target(name: "CSpawn", path: "Modules/CSpawn"),
        .library("StateMachineCore", path: "Modules/StateMachineCore", dependencies: ["StateMachineSupport"]),
        // State graphs of the three kinds of machine, their test paths and diagrams, and
        // transition coverage; test-free, so the apps can draw machines with it.
        .library(
            "StateMachineGraph",
            path: "Modules/StateMachineGraph",
            dependencies: ["StateMachineCore", "StateMachineTable", "StateMachineHierarchy", "StateMachineSupport"]
        ),
        .library(
            "StateMachineTest",
            path: "Modules/StateMachineTest",
            dependencies: [
                "StateMachineCore", "StateMachineSupport", "StateMachineGraph", "StateMachineTable",
                "StateMachineHierarchy",
            ]
        ),
        .library("StateMachineTable", path: "Modules/StateMachineTable", dependencies: ["StateMachineSupport"]),
        .library("StateMachineHierarchy", path: "Modules/StateMachineHierarchy", dependencies: ["StateMachineSupport"]),
        // W3C SCXML documents on the statechart engine: parser, builder, interpreter, the null
        // data model and the data-model seam. Apart from StateMachineHierarchy so that a
        // program that only uses typed or JSON charts never links FoundationXML (and libxml2).
        .library(
            "StateMachineSCXML",
            path: "Modules/StateMachineSCXML",
            dependencies: ["StateMachineHierarchy", "StateMachineSupport"]
        ),
        .library(
            "StateMachineBroadcast",
            path: "Modules/StateMachineBroadcast",
            dependencies: ["StateMachineCore", "StateMachineSupport"]
        ),
        .library(
            "StateMachineDump",
            path: "Modules/StateMachineDump",
            dependencies: ["StateMachineCore", "StateMachineSupport"]
        ),
        .library(
            "StateMachineUI",
            path: "Modules/StateMachineUI",
            dependencies: ["StateMachineCore", "StateMachineSupport"]
        ),
        // The SCXML ECMAScript data model, apart from StateMachineHierarchy so that a program
        // that never loads such a document never links a JavaScript engine. CDuktape compiles
        // Debian's duktape (duktape-dev's amalgamated /usr/share/duktape/duktape.c, with its
        // execution-timeout hook turned on; scripts/setup installs the package) together with
        // the C half of the data model; no pkg-config, no unsafe flags.
        .target(name: "CDuktape", path: "Modules/CDuktape", linkerSettings: [.linkedLibrary("m")]),
        .library(
            "StateMachineECMAScript",
            path: "Modules/StateMachineECMAScript",
            dependencies: ["StateMachineSCXML", "StateMachineHierarchy", "CDuktape"]
        ),
        // Durable machines: the store interface, the runtime, the forms of Core, table and
        // statechart machines, and the SQLite store. CSQLite links Debian's libsqlite3
        // (libsqlite3-dev; scripts/setup installs it) through a module map, without
        // pkg-config; named so that it cannot clash with Apple's SQLite3 module.
        .systemLibrary(name: "CSQLite", path: "Modules/CSQLite"),
        .library(
            "StateMachineDurable",
            path: "Modules/StateMachineDurable",
            dependencies: [
                "StateMachineCore", "StateMachineTable", "StateMachineHierarchy", "StateMachineSupport", "CSQLite",
            ]
        ),
        // Durable machines on a PostgreSQL server, apart so that SQLite users link no libpq.
        // CLibPQ links Debian's libpq (libpq-dev; scripts/setup installs it) through a module
        // map that includes postgresql/libpq-fe.h, without pkg-config.
        .systemLibrary(name: "CLibPQ", path: "Modules/CLibPQ"),
        .library(
            "StateMachinePostgreSQL",
            path: "Modules/StateMachinePostgreSQL",
            dependencies: ["StateMachineDurable", "StateMachineSupport", "CLibPQ"]
        ),
        // Durable SCXML sessions, apart so that a Core or table user of durable machines
        // links neither FoundationXML nor duktape.
        .library(
            "StateMachineDurableSCXML",
            path: "Modules/StateMachineDurableSCXML",
            dependencies: ["StateMachineDurable", "StateMachineSCXML", "StateMachineHierarchy", "StateMachineSupport"]
        ),
        // The runtime products; not StateMachineTest, which links XCTest and Testing.
        .library(
            "SwiftStateMachine",
            path: "Modules/SwiftStateMachine",
            dependencies: [
                "StateMachineCore", "StateMachineTable", "StateMachineHierarchy", "StateMachineSCXML",
                "StateMachineBroadcast", "StateMachineDump", "StateMachineUI", "StateMachineGraph",
            ]
        ),

        // MARK: Sample features (the state machines the apps show)
        .library(
            "CaseStudiesFeatures",
            path: "Samples/CaseStudiesFeatures",
            dependencies: ["StateMachineCore", "StateMachineTable", "StateMachineHierarchy"]
        ),
        .library(
            "NavigationFeatures",
            path: "Samples/NavigationFeatures",
            dependencies: ["StateMachineCore", "StateMachineSupport"]
        ),

        // MARK: Terminal layer shared by the apps
        // No `pkgConfig:`: readline.pc's Cflags (-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600, from
        // ncurses) are flags SwiftPM prohibits and warns about on every build. The headers are
        // in the default include path and the module map links `readline`; scripts/setup
        // installs libreadline-dev where it is missing.
        .systemLibrary(name: "CReadline", path: "Apps/CReadline"),
        // Counts the Benchmarks executable's heap allocations (glibc symbol interposition).
        .target(name: "CAllocationCounter", path: "Apps/CAllocationCounter"),
        .library("Terminal", path: "Apps/Terminal", dependencies: ["CReadline", "StateMachineSupport"]),
        // What the apps' terminal layer does with Core machines (the `dump` command, the
        // transition log, the `--state FILE` kept in a durable machine), apart from Terminal
        // so that the statechart tool links neither Core nor SQLite.
        .library(
            "TerminalMachines",
            path: "Apps/TerminalMachines",
            dependencies: ["Terminal", "StateMachineCore", "StateMachineDump", "StateMachineDurable"]
        ),

        // MARK: Apps
        .library(
            "CaseStudiesScreens",
            path: "Apps/CaseStudiesScreens",
            dependencies: [
                "Terminal", "TerminalMachines", "StateMachineUI", "CaseStudiesFeatures", "StateMachineCore",
                "StateMachineDump", "StateMachineHierarchy", "StateMachineGraph", "StateMachineSupport",
                "StateMachineSCXML", "StateMachineECMAScript",
            ],
            // parking-meter.scxml becomes the class ParkingMeter at build time.
            plugins: ["ChartCompilerPlugin"]
        ),
        .executable(
            "CaseStudies",
            path: "Apps/CaseStudies",
            dependencies: ["CaseStudiesScreens", "Terminal", "TerminalMachines", "StateMachineDump"]
        ),
        .library(
            "NavigationScreens",
            path: "Apps/NavigationScreens",
            dependencies: [
                "Terminal", "TerminalMachines", "StateMachineUI", "NavigationFeatures", "StateMachineCore",
                "StateMachineDump",
            ]
        ),
        .executable(
            "Navigation",
            path: "Apps/Navigation",
            dependencies: ["NavigationScreens", "Terminal", "TerminalMachines", "StateMachineDump"]
        ),
        .library(
            "StatechartToolKit",
            path: "Apps/StatechartTool/Kit",
            dependencies: [
                "Terminal", "StateMachineHierarchy", "StateMachineSCXML", "StateMachineECMAScript",
                "StateMachineSupport",
            ]
        ),
        .executable(
            "StatechartTool",
            path: "Apps/StatechartTool/Main",
            dependencies: ["StatechartToolKit", "Terminal"]
        ),

        // MARK: Executables
        // The chart compiler: .scxml and .chart.json charts into typed Swift, run at build time
        // by the ChartCompilerPlugin (a build-tool plugin product) for each chart of a target.
        .executable(
            "ChartCompiler",
            path: "Apps/ChartCompiler",
            dependencies: ["StateMachineSCXML", "StateMachineHierarchy", "StateMachineECMAScript"]
        ),
        .plugin(
            name: "ChartCompilerPlugin",
            capability: .buildTool(),
            dependencies: ["ChartCompiler"],
            path: "Plugins/ChartCompilerPlugin"
        ),
        .executable(
            "Benchmarks",
            path: "Apps/Benchmarks",
            dependencies: [
                "CAllocationCounter", "StateMachineCore", "StateMachineTable", "StateMachineHierarchy",
                "StateMachineSCXML", "StateMachineECMAScript", "StateMachineBroadcast", "StateMachineDump",
                "StateMachineSupport", "StateMachineDurable", "CSQLite", "StateMachinePostgreSQL", "CLibPQ",
                "PostgreSQLTestCluster",
            ]
        ),

        // MARK: Tests
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        // A PostgreSQL cluster of a test's (or a benchmark's) own, started with initdb and pg_ctl
        // and stopped when its process ends: used by the tests and by Benchmarks.
        .library(
            "PostgreSQLTestCluster",
            path: "Tests/PostgreSQLTestCluster",
            dependencies: ["CSpawn", "StateMachineSupport"]
        ),
        .library(
            "TestSupport",
            path: "Tests/TestSupport",
            dependencies: ["CPseudoTerminal", "CSpawn", "StateMachineCore", "StateMachineSupport"]
        ),
        .tests(
            "StateMachineSupportTests",
            dependencies: ["StateMachineSupport", "TestSupport", "PostgreSQLTestCluster"]
        ),
        .tests("StateMachineCoreTests", dependencies: ["StateMachineCore", "StateMachineSupport", "TestSupport"]),
        .tests("StateMachineTestTests", dependencies: ["StateMachineCore", "StateMachineSupport", "StateMachineTest"]),
        .tests("StateMachineTableTests", dependencies: ["StateMachineTable", "StateMachineSupport", "TestSupport"]),
        .tests(
            "StateMachineGraphTests",
            dependencies: [
                "StateMachineGraph", "StateMachineTest", "StateMachineCore", "StateMachineTable",
                "StateMachineHierarchy", "StateMachineSupport", "CaseStudiesFeatures", "TestSupport",
            ]
        ),
        .tests(
            "StateMachineHierarchyTests",
            // CaseStudiesFeatures: the README's player is the CaseStudies chart, not a copy.
            dependencies: [
                "StateMachineHierarchy", "StateMachineSCXML", "StateMachineSupport", "TestSupport",
                "CaseStudiesFeatures",
            ],
            resources: [.copy("Fixtures")]
        ),
        .tests(
            "StateMachineECMAScriptTests",
            dependencies: [
                "StateMachineECMAScript", "StateMachineSCXML", "StateMachineHierarchy", "StateMachineSupport",
            ]
        ),
        .tests(
            "StateMachineBroadcastTests",
            dependencies: ["StateMachineCore", "StateMachineBroadcast", "TestSupport"]
        ),
        .tests("StateMachineDumpTests", dependencies: ["StateMachineCore", "StateMachineDump", "TestSupport"]),
        .tests(
            "StateMachineUITests",
            dependencies: ["StateMachineCore", "StateMachineUI", "StateMachineSupport", "TestSupport"]
        ),
        .tests(
            "CaseStudiesFeaturesTests",
            dependencies: [
                "CaseStudiesFeatures", "StateMachineCore", "StateMachineHierarchy", "StateMachineTest", "TestSupport",
            ]
        ),
        .tests(
            "NavigationFeaturesTests",
            dependencies: ["NavigationFeatures", "StateMachineCore", "StateMachineTest", "TestSupport"]
        ),
        .tests(
            "CaseStudiesTests",
            dependencies: [
                "CaseStudiesScreens", "CaseStudiesFeatures", "StateMachineCore", "StateMachineDump",
                "StateMachineHierarchy", "Terminal", "TestSupport",
            ]
        ),
        .tests(
            "NavigationTests",
            dependencies: ["NavigationScreens", "NavigationFeatures", "Terminal", "TestSupport"]
        ),
        .tests(
            "StatechartToolTests",
            dependencies: [
                "StatechartToolKit", "StateMachineHierarchy", "StateMachineSCXML", "StateMachineSupport", "Terminal",
                "TestSupport", "ChartCompiler",
            ]
        ),
        // The W3C SCXML conformance tests (../shared/conformance/w3c), converted and run by the
        // statechart tool's runner.
        .tests(
            "W3CConformanceTests",
            dependencies: ["StatechartToolKit", "StateMachineHierarchy", "StateMachineSCXML", "StateMachineECMAScript"]
        ),
        .tests("TerminalTests", dependencies: ["Terminal"]),
        // The process the durable machines' kill -9 tests kill.
        .executable(
            "DurableWorker",
            path: "Tests/DurableWorker",
            dependencies: [
                "StateMachineDurable", "StateMachineDurableSCXML", "StateMachineSCXML", "StateMachineECMAScript",
                "StateMachineCore", "StateMachineTable", "StateMachineHierarchy", "StateMachinePostgreSQL",
            ]
        ),
        .tests(
            "StateMachineDurableTests",
            dependencies: [
                "StateMachineDurable", "StateMachineDurableSCXML", "StateMachineECMAScript", "StateMachineSCXML",
                "StateMachineCore", "StateMachineTable", "StateMachineHierarchy", "StateMachineSupport", "TestSupport",
                "DurableWorker", "StateMachinePostgreSQL", "PostgreSQLTestCluster",
            ]
        ),
        // Several DurableWorker processes serving one PostgreSQL store: takeover, kills, a
        // server restart, a malformed row.
        .tests(
            "StateMachinePostgreSQLTests",
            dependencies: [
                "StateMachinePostgreSQL", "StateMachineDurable", "StateMachineCore", "StateMachineSupport",
                "TestSupport",
                "DurableWorker", "PostgreSQLTestCluster",
            ]
        ),
        .tests(
            "ReadmeTests",
            dependencies: [
                "TestSupport", "CaseStudiesFeatures", "StateMachineCore", "StateMachineTest", "StateMachineTable",
                "StateMachineHierarchy", "StateMachineSCXML", "StateMachineECMAScript", "StateMachineBroadcast",
                "StateMachineDump",
                "StateMachineUI", "StateMachineGraph", "SwiftStateMachine", "StateMachineDurable",
                "StateMachineDurableSCXML", "StateMachinePostgreSQL",
            ]
        ),
        .tests(
            "FuzzRegressionTests",
            dependencies: [
                "StateMachineHierarchy", "StateMachineSCXML", "StateMachineECMAScript", "NavigationFeatures",
                "Terminal",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
