import Foundation

/// The product's executables the benchmarks run as processes (`checkin-server`): beside this executable, else in
/// the product's own build of the same configuration (`swift build -c release` at the repository's root), since
/// this package builds only the benchmark.
enum ProductBinary {
    static func path(_ name: String) -> String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidate = beside.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        // Benchmarks/Sources/kiosk-bench/ProductBinary.swift: four folders up is the repository.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        #if DEBUG
            let configuration = "debug"
        #else
            let configuration = "release"
        #endif
        return root.appendingPathComponent(".build/\(configuration)/\(name)").path
    }
}
