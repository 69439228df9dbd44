import ArgumentParser
import CheckinCore
import CheckinMail
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import Foundation
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API (with no --database: checkin.db in the working folder, made if missing).")

    @OptionGroup var options: DatabaseOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: one the system chooses; see --port-file).") var port = 8080
    @Option(
        name: .customLong("port-file"),
        help: "Write the port the server listens on to this file once it listens (for --port 0).")
    var portFile: String?
    @Option(name: .customLong("tls-certificate"), help: "PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key of the certificate.") var tlsKey: String?
    @Option(
        name: .customLong("public-url"),
        help:
            "Where guests open their passes (the QR codes hold <public-url>/p/<pass>); default: this server's address.")
    var publicURL: String?
    @Option(name: .customLong("pass-dir"), help: "The folder that keeps the pass images (made if missing).")
    var passDirectory = "passes"
    @Option(
        name: .customLong("issuance-workers"),
        help: "Passes worked on at once by this process (sign, render, store, email); 0 issues none here.")
    var issuanceWorkers = 2
    @Option(
        name: .customLong("smtp-url"),
        help: ArgumentHelp(
            "The relay for pass e-mails: smtp://[user@]host[:587] (STARTTLS required), smtps://[user@]host[:465] (TLS), or smtp+plain://127.0.0.1[:25] (loopback only).",
            discussion: "Without it, passes are made and stored, and their e-mails wait (shown on the guest page)."))
    var smtpURL: String?
    @Option(
        name: .customLong("smtp-password-file"),
        help: "A file holding the relay's password (never on the command line).")
    var smtpPasswordFile: String?
    @Option(
        name: .customLong("smtp-ca-file"), help: "PEM CA certificates to verify the relay with (default: the system's)."
    )
    var smtpCAFile: String?
    @Option(
        name: .customLong("mail-from"),
        help: "The sender of pass e-mails and offline alerts, such as passes@checkin.example.org.")
    var mailFrom: String?
    @Flag(
        name: .customLong("allow-http-webhooks"),
        help: "Let organizers send offline alerts to plain http webhook URLs (default: https only).")
    var allowHTTPWebhooks = false
    @Flag(
        name: .customLong("allow-private-webhooks"),
        help:
            "Let offline-alert webhooks go to loopback, private, link-local or CGNAT addresses (a receiver on the venue's own network; default: public addresses only)."
    )
    var allowPrivateWebhooks = false
    @OptionGroup(title: "Limits at the edges") var edges: EdgeOptions
    @Option(
        name: .customLong("watch-interval"),
        help: "Seconds between two looks for kiosks gone offline (offline alerts); 0 turns the watch off here.")
    var watchInterval = 30
    @Option(
        name: .customLong("retention-days"),
        help: ArgumentHelp(
            "Days after an event ends before its guests' personal data is purged (0-3650).",
            discussion: """
                Names, e-mail addresses, phones, notes, arrival alerts and passes (their images too) go; guest ids, \
                check-ins, counts and the audit stay. Checked at start and every hour.
                """))
    var retentionDays = PersonalDataRetention.defaultDays
    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(
            "A file (0600) holding the token a Prometheus scraper sends to GET /metrics (Authorization: Bearer).",
            discussion: "Without it the server has no /metrics. At least 16 characters; no other route takes it."))
    var metricsTokenFile: String?

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("give both --tls-certificate and --tls-key, or neither")
        }
        if let publicURL,
            URL(string: publicURL)?.host == nil || !["http", "https"].contains(URL(string: publicURL)?.scheme)
        {
            throw ValidationError("--public-url '\(publicURL)' is not a URL such as https://checkin.example.org")
        }
        guard (0...3650).contains(retentionDays) else {
            throw ValidationError("--retention-days must be from 0 to 3650 days, found \(retentionDays)")
        }
        guard (0...3600).contains(watchInterval) else {
            throw ValidationError("--watch-interval must be from 0 (off) to 3600 seconds")
        }
        try edges.validate()
        guard (0...32).contains(issuanceWorkers) else {
            throw ValidationError("--issuance-workers must be from 0 to 32")
        }
        _ = try FaultInjection.crashAfterStep()
    }

    func run() async throws {
        var logger = Logger(label: "checkin-server")
        logger.logLevel = .info
        var limits = edges.limits
        limits.allowPlainHTTPWebhooks = allowHTTPWebhooks
        limits.allowPrivateWebhooks = allowPrivateWebhooks
        var configuration = ServerConfiguration(
            host: host, port: port, tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey, limits: limits)
        configuration.retention = PersonalDataRetention(days: retentionDays)
        if let metricsTokenFile {
            configuration.metrics = ServerMetrics(token: try Self.metricsToken(metricsTokenFile))
        }
        let scheme = tlsCertificate == nil ? "http" : "https"
        let address = PublicAddress(publicURL ?? "\(scheme)://\(host):\(port)")
        let relay = try mailer()
        // The port, once listening: in the links (without --public-url), and for whoever started the server with
        // --port 0 (written whole, then renamed).
        let portFile = self.portFile
        let ownAddress = publicURL == nil
        let listening: @Sendable (Int) async -> Void = { [logger, host] port in
            if ownAddress { address.update("\(scheme)://\(host):\(port)") }
            guard let portFile else { return }
            let temporary = portFile + ".tmp"
            do {
                try "\(port)\n".write(toFile: temporary, atomically: false, encoding: .utf8)
                _ = rename(temporary, portFile)
            } catch {
                logger.error("cannot write the port to \(portFile): \(error)")
            }
        }
        // The background work beside the HTTP server: pass issuance and the offline-alert watch.
        func issuance(_ repository: any CheckinRepository) -> (PassIssuanceSteps, [any Service]) {
            let steps = PassIssuanceSteps(
                repository: repository, images: PassImageStore(directory: passDirectory), address: address,
                mailer: relay)
            var workers: [any Service] = []
            if issuanceWorkers > 0 {
                let crash = try? FaultInjection.crashAfterStep()
                var worker = PassIssuanceWorker(
                    repository: repository, steps: steps, workers: issuanceWorkers,
                    logger: Logger(label: "pass-issuance"), crashAfter: crash)
                worker.metrics = configuration.metrics
                workers.append(worker)
            }
            if watchInterval > 0 {
                var watch = DeviceWatch(
                    repository: repository,
                    sender: OfflineAlertSender(
                        repository: repository, mailer: relay, address: address,
                        allowPrivateWebhooks: limits.allowPrivateWebhooks),
                    interval: .seconds(watchInterval), deliveriesAtOnce: limits.alertDeliveriesAtOnce,
                    logger: Logger(label: "device-watch"))
                watch.metrics = configuration.metrics
                workers.append(watch)
            }
            workers.append(
                PersonalDataPurgeWorker(
                    repository: repository, retention: configuration.retention,
                    passImages: PassImageStore(directory: passDirectory)))
            return (steps, workers)
        }
        let secrets = try options.secretsKey()
        // Images an older version wrote with the umask's modes become 0600 too.
        try PassImageStore(directory: passDirectory).restrictExisting()
        // The store, migrated before anything serves or works on it: SQLite when it opens; PostgreSQL on a client
        // of its own, run for that only (under an advisory lock: several servers may start at once). The
        // PostgreSQL client then runs as a service beside the HTTP server and the workers.
        let repository: any CheckinRepository
        var storeServices: [any Service] = []
        if let postgres = try options.postgresConfiguration() {
            try await PostgresCheckinRepository.migrate(configuration: postgres, secrets: secrets, logger: logger)
            let client = PostgresClient(configuration: postgres, backgroundLogger: logger)
            repository = PostgresCheckinRepository(client: client, secrets: secrets, logger: logger)
            storeServices = [client]
        } else {
            repository = try options.openSQLite(secrets: secrets)
        }
        let (steps, workers) = issuance(repository)
        // A certificate or key that cannot be read stops the server here, with the file's name.
        let app = try buildApplication(
            configuration: configuration, repository: repository, issuance: steps, services: storeServices + workers,
            logger: logger, onListening: listening)
        logger.info(
            "serving \(options.storeDescription) on \(tlsCertificate == nil ? "http" : "https")://\(host):\(port)")
        if publicURL == nil, ["0.0.0.0", "::", "[::]"].contains(host) {
            // The links would name the wildcard address, which no guest's phone can open.
            logger.warning(
                """
                no --public-url: passes, reset links and alerts will link to \(scheme)://\(host), which \
                nobody can open; give --public-url with the address guests and organizers reach, such as \
                https://checkin.example.org
                """)
        }
        var group = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Requests in flight and the workers' current steps get this long; then everything is cancelled (a
        // step cut short is done again at the next start: each step commits on its own).
        group.maximumGracefulShutdownDuration = Self.shutdownLimit
        group.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
    }
}

extension Serve {
    /// How long a graceful shutdown (SIGTERM, SIGINT) may take before the rest is cancelled; under systemd's
    /// default stop timeout of 90 s.
    static let shutdownLimit = Duration.seconds(15)

    /// The relay named by the SMTP options, or nil without `--smtp-url`; a wrong option is a clear error.
    func mailer() throws -> RelayMailer? {
        guard let smtpURL else { return nil }
        var password: String?
        if let smtpPasswordFile {
            guard let text = try? String(contentsOfFile: smtpPasswordFile, encoding: .utf8) else {
                throw ValidationError("cannot read --smtp-password-file \(smtpPasswordFile)")
            }
            password = text.trimmingCharacters(in: .newlines)
        }
        do {
            let relay = try SMTPRelay(url: smtpURL, password: password, caFile: smtpCAFile)
            return RelayMailer(relay: relay, from: try MailAddress(mailFrom ?? ""))
        } catch {
            throw ValidationError("the SMTP options are not usable: \(error)")
        }
    }

    /// The metrics token from its file: private to this user, long enough to guess no sooner than a device's.
    static func metricsToken(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read --metrics-token-file \(path)")
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        {
            throw ValidationError(
                "--metrics-token-file \(path) can be read by other users (mode \(String(mode, radix: 8))): chmod 600 it"
            )
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16 else {
            throw ValidationError("the metrics token in \(path) is shorter than 16 characters: make a longer one")
        }
        return token
    }
}
