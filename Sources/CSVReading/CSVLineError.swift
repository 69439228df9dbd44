/// A CSV file that cannot be read: the line the bad record starts on (the header is line 1) and what is wrong.
public struct CSVLineError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var problem: String

    public init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }

    public var description: String { "line \(line): \(problem)" }
}
