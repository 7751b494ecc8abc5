/// Benchmarks of the Table product (filled in by the issue that builds it).
enum TableBenchmarks {
    static func run() async throws {
        print("table: no benchmarks yet")
    }
}
