/// Benchmarks of the Core product (filled in by the issue that builds it).
enum CoreBenchmarks {
    static func run() async throws {
        print("core: no benchmarks yet")
    }
}
