import CheckinPostgres
import Foundation
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh database for one benchmark run on the PostgreSQL server of the tests (scripts/postgres.sh), made
/// and dropped by a client on the URL's own database.
struct BenchPostgres: Sendable {
    /// The URL of the fresh database.
    let url: String
    let name: String
    private let admin: PostgresClient
    private let adminTask: Task<Void, Never>

    /// The server's URL: `--postgres`, else CHECKIN_TEST_POSTGRES_URL, else .build/pg/url in the working folder.
    static func serverURL(option: String?) -> String? {
        if let option, !option.isEmpty { return option }
        if let url = ProcessInfo.processInfo.environment["CHECKIN_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        return (try? String(contentsOfFile: ".build/pg/url", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes the database, or says why not (no URL, nothing listening, refused).
    static func make(serverURL: String?) async -> Result<BenchPostgres, BenchFailure> {
        guard let serverURL, let configuration = PostgresClient.Configuration(url: serverURL),
            var components = URLComponents(string: serverURL), let host = components.host
        else {
            return .failure(
                BenchFailure("no PostgreSQL URL (--postgres, CHECKIN_TEST_POSTGRES_URL or .build/pg/url)"))
        }
        let port = components.port ?? 5432
        guard reachable(host: host, port: port) else {
            return .failure(BenchFailure("nothing listens on \(host):\(port)"))
        }
        let admin = PostgresClient(configuration: configuration, backgroundLogger: BenchServer.logger)
        let task = Task { await admin.run() }
        let name = "bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        do {
            // CREATE DATABASE takes no parameters; the name is made here, of [a-z0-9_] only.
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        } catch {
            task.cancel()
            return .failure(BenchFailure("CREATE DATABASE failed: \(String(reflecting: error))"))
        }
        components.path = "/" + name
        return .success(BenchPostgres(url: components.string!, name: name, admin: admin, adminTask: task))
    }

    /// The server's settings that decide what a commit costs, for the table's note.
    func durability() async -> String {
        var settings: [String] = []
        for setting in ["fsync", "synchronous_commit"] {
            guard
                let rows = try? await admin.query(PostgresQuery(unsafeSQL: "SHOW \(setting)")).collect(),
                let value = try? rows.first?.decode(String.self)
            else { continue }
            settings.append("\(setting)=\(value)")
        }
        return settings.joined(separator: ", ")
    }

    /// The CPU seconds the server's backends for this database have used so far (`/proc/PID/stat` of each
    /// backend `pg_stat_activity` lists; the benchmark runs on the database's machine).
    func backendCPUSeconds() async -> Double {
        guard
            let rows = try? await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = \(name)").collect()
        else { return 0 }
        return rows.compactMap { try? $0.decode(Int32.self) }.compactMap { ProcessCPU.seconds(pid: $0) }.reduce(0, +)
    }

    func drop() async {
        _ = try? await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        adminTask.cancel()
    }

    /// Whether a TCP connection to `host:port` opens within the kernel's connect (loopback: at once).
    static func reachable(host: String, port: Int) -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list else { return false }
        defer { freeaddrinfo(list) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
    }
}
