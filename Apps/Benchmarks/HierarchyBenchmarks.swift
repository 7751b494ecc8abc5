/// Benchmarks of the Hierarchy product (filled in by the issue that builds it).
enum HierarchyBenchmarks {
    static func run() async throws {
        print("hierarchy: no benchmarks yet")
    }
}
