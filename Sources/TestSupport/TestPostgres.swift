import Foundation

/// Where the tests' PostgreSQL is (scripts/postgres.sh starts it).
public enum TestPostgres {
    public struct NoServer: Error, CustomStringConvertible {
        public init() {}

        public var description: String {
            "no PostgreSQL for the tests: run scripts/postgres.sh first (it starts one on 127.0.0.1 and writes "
                + "its URL to .build/pg/url), or set CHECKIN_TEST_POSTGRES_URL"
        }
    }

    /// The URL from CHECKIN_TEST_POSTGRES_URL, else from .build/pg/url in the package.
    public static func url() throws(NoServer) -> String {
        if let url = ProcessInfo.processInfo.environment["CHECKIN_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        let file = ChildProcess.packageRoot + "/.build/pg/url"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw NoServer() }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
