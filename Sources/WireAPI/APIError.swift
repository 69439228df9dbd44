/// The body of every error answer: a machine code, what is wrong, and what to do.
public struct APIError: Codable, Equatable, Sendable, Error {
    public var code: String
    public var message: String
    public var hint: String?
    /// Per-line problems of an import.
    public var lines: [LineProblem]?

    public init(code: String, message: String, hint: String? = nil, lines: [LineProblem]? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
        self.lines = lines
    }

    public struct LineProblem: Codable, Equatable, Sendable {
        public var line: Int
        public var message: String

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    /// The one answer for what does not exist and for what belongs to another tenant.
    public static let notFound = APIError(code: "not_found", message: "not found")
}
