import ArgumentParser
import CheckinSQLite
import CheckinServer
import Hummingbird
import Logging
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
        let repository = try SQLiteCheckinRepository(path: options.database)
        // A certificate or key that cannot be read stops the server here, with the file's name.
        let app = try buildApplication(
            configuration: ServerConfiguration(
                host: host, port: port, tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey),
            repository: repository, logger: logger)
        logger.info("serving \(options.database) on \(tlsCertificate == nil ? "http" : "https")://\(host):\(port)")
        let group = ServiceGroup(
            configuration: .init(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
