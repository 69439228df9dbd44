import ArgumentParser
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API (with no --database: checkin.db in the working folder, made if missing).")

    @OptionGroup var options: DatabaseOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @Option(name: .customLong("tls-certificate"), help: "PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key of the certificate.") var tlsKey: String?

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("give both --tls-certificate and --tls-key, or neither")
        }
    }

    func run() async throws {
        var logger = Logger(label: "checkin-server")
        logger.logLevel = .info
        let configuration = ServerConfiguration(
            host: host, port: port, tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey)
        let services: [any Service]
        if let url = options.postgres {
            // The client is a service beside the HTTP server; the schema is brought up to date before the
            // server listens (under an advisory lock: several servers may start at once).
            let client = PostgresClient(
                configuration: PostgresClient.Configuration(url: url)!, backgroundLogger: logger)
            let repository = PostgresCheckinRepository(client: client, logger: logger)
            let app = try buildApplication(configuration: configuration, repository: repository, logger: logger)
            services = [client, MigrateThenServe(repository: repository, app: app)]
        } else {
            let repository = try SQLiteCheckinRepository(path: options.database)
            // A certificate or key that cannot be read stops the server here, with the file's name.
            services = [try buildApplication(configuration: configuration, repository: repository, logger: logger)]
        }
        logger.info(
            "serving \(options.storeDescription) on \(tlsCertificate == nil ? "http" : "https")://\(host):\(port)")
        let group = ServiceGroup(
            configuration: .init(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Runs the migrations, then the HTTP server (the PostgreSQL client must be running: it is the group's other
/// service).
struct MigrateThenServe<App: ApplicationProtocol>: Service {
    let repository: PostgresCheckinRepository
    let app: App

    func run() async throws {
        try await repository.migrate()
        try await app.run()
    }
}
