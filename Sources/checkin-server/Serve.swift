import ArgumentParser
import CheckinServer
import CheckinSQLite
import Hummingbird
import Logging
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API (with no --database: checkin.db in the working folder, made if missing).")

    @OptionGroup var options: DatabaseOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080

    func run() async throws {
        var logger = Logger(label: "checkin-server")
        logger.logLevel = .info
        let repository = try SQLiteCheckinRepository(path: options.database)
        let app = try buildApplication(
            configuration: ServerConfiguration(host: host, port: port), repository: repository, logger: logger)
        logger.info("serving \(options.database) on http://\(host):\(port)")
        let group = ServiceGroup(configuration: .init(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
