import CheckinPostgres
import Foundation
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing

/// The PostgreSQL password stays off the command line, and TLS to a database on another machine is verified
/// unless the operator says otherwise.
@Suite("PostgreSQL credentials and TLS", .dropsTestDatabases)
struct PostgresCredentialsTests {
    @Test func tlsIsVerifiedByDefaultExceptOnLoopback() async throws {
        typealias C = PostgresClient.Configuration
        #expect(try C.sslMode(url: "postgres://checkin@db.internal/checkin") == "verify-full")
        #expect(try C.sslMode(url: "postgres://checkin@10.0.0.5/checkin") == "verify-full")
        #expect(try C.sslMode(url: "postgres://checkin@127.0.0.1:54329/checkin") == "prefer")
        #expect(try C.sslMode(url: "postgres://checkin@[::1]/checkin") == "prefer")
        #expect(try C.sslMode(url: "postgres://checkin@localhost/checkin") == "prefer")
        #expect(try C.sslMode(url: "postgres://checkin@db.internal/checkin?sslmode=require") == "require")
        #expect(
            try C.sslMode(url: "postgres://checkin@db.internal/checkin?sslmode=require", caFile: "ca.pem")
                == "verify-ca")
        #expect(try C.sslMode(url: "postgres://checkin@db.internal/c?sslmode=disable") == "disable")
        #expect(throws: PostgresURLError.unknownSSLMode("sometimes")) {
            try C.sslMode(url: "postgres://checkin@db.internal/c?sslmode=sometimes")
        }
        // A CA file, by option or sslrootcert=, must be readable; a password or a CA given twice is refused.
        let folder = RepositoryFactory.temporaryFolder()
        let ca = folder + "/ca.pem"
        try await TestCertificates.make(in: folder)
        #expect(throws: PostgresURLError.unreadableCAFile(folder + "/none.pem")) {
            try C(postgresURL: "postgres://checkin@db.internal/c?sslmode=verify-full&sslrootcert=\(folder)/none.pem")
        }
        _ = try C(postgresURL: "postgres://checkin@db.internal/c?sslmode=verify-full&sslrootcert=\(ca)")
        _ = try C(postgresURL: "postgres://checkin@db.internal/c", caFile: ca)
        #expect(throws: PostgresURLError.caFileTwice) {
            try C(postgresURL: "postgres://checkin@db.internal/c?sslrootcert=\(ca)", caFile: ca)
        }
        #expect(throws: PostgresURLError.passwordTwice) {
            try C(postgresURL: "postgres://checkin:pw@db.internal/c", password: "pw")
        }
        #expect(try C(postgresURL: "postgres://checkin@db.internal/c", password: "from-file").password == "from-file")
    }

    /// The password from a file, or from the environment (CHECKIN_POSTGRES_URL, PGPASSWORD): a command that
    /// shows nothing of it in `ps`. On the command line it still works, with a warning.
    @Test func thePasswordComesFromAFileOrTheEnvironment() async throws {
        let database = try await PostgresTestDatabase.make()
        var components = try #require(URLComponents(string: database.url))
        let password = try #require(components.password)
        components.password = nil
        let bare = try #require(components.string)
        let folder = RepositoryFactory.temporaryFolder()
        try password.write(toFile: folder + "/pg-password", atomically: true, encoding: .utf8)
        let server = "'\(ChildProcess.productsFolder)/checkin-server'"

        let fromFile = try await ChildProcess.shell(
            "\(server) create-tenant --name A --postgres '\(bare)' --postgres-password-file pg-password", in: folder)
        #expect(fromFile.status == 0 && fromFile.out.split(separator: "\n").contains("1"), "\(fromFile.out)")
        #expect(!fromFile.out.contains("warning"))

        let fromEnvironment = try await ChildProcess.shell(
            "CHECKIN_POSTGRES_URL='\(bare)' PGPASSWORD='\(password)' \(server) create-tenant --name B", in: folder)
        #expect(
            fromEnvironment.status == 0 && fromEnvironment.out.split(separator: "\n").contains("2"),
            "\(fromEnvironment.out)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/checkin.db"))

        let onTheCommandLine = try await ChildProcess.shell(
            "\(server) create-tenant --name C --postgres '\(database.url)'", in: folder)
        #expect(onTheCommandLine.status == 0, "\(onTheCommandLine.out)")
        #expect(onTheCommandLine.out.contains("warning: the PostgreSQL password is on the command line"))

        let wrong = try await ChildProcess.shell(
            "\(server) create-tenant --name D --postgres '\(database.url)' --postgres-password-file pg-password",
            in: folder)
        #expect(wrong.status != 0 && wrong.out.contains("the password is given twice"), "\(wrong.out)")
        #expect(!wrong.out.contains(password))
    }
}
