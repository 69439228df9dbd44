import ArgumentParser
import Foundation

@main
struct KioskBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-bench",
        abstract: "Benchmarks of the door pipeline; prints tables for BENCHMARKS.md.",
        discussion: """
            Run in release, from the repository's root: swift run --package-path Benchmarks -c release \
            kiosk-bench [pipeline|lookup|robustness|idle|all|sync]. \
            'all' leaves out 'sync', which takes minutes and runs a check-in server (and PostgreSQL if reachable).
            """,
        subcommands: [
            PipelineBench.self, LookupBench.self, AtRestBench.self, RobustnessBench.self, DecoderBench.self,
            IdleBench.self, LiveDoorBench.self,
            SyncBench.self,
            ServerBench.self,
            WebBench.self,
            GuestListBench.self,
            IssuanceBench.self,
            LANBench.self,
            AllBenches.self,
        ],
        defaultSubcommand: AllBenches.self)
}

struct AllBenches: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "all", abstract: "Every benchmark.")
    func run() async throws {
        let p = try PipelineBench.parse([])
        try await p.run()
        let l = try LookupBench.parse([])
        try l.run()
        let r = try RobustnessBench.parse([])
        try r.run()
        let i = try IdleBench.parse([])
        try i.run()
    }
}
