/// A CA and a server certificate for `localhost` and 127.0.0.1, made on the spot with openssl: the tests'
/// HTTPS servers use them, their clients trust `ca.pem`.
public enum TestCertificates {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `ca.pem`, `ca.key`, `server.pem` and `server.key` into `folder` (valid one day).
    public static func make(in folder: String) async throws {
        let made = try await ChildProcess.shell(
            """
            set -e
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=test-ca
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj /CN=localhost
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext
            """, in: folder)
        guard made.status == 0 else {
            throw Failure(
                description:
                    "openssl could not make the test certificates in \(folder) (is openssl installed?): \(made.out)")
        }
    }
}
