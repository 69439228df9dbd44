/// The password checks (bcrypt, about 250 ms of CPU each) a server process runs: `atOnce` at a time, at most
/// `waiting` more in line (first come, first served); beyond that a sign-in is refused at once (`Full`, 429)
/// instead of lining up without end behind a flood of guesses.
actor PasswordCheckQueue {
    let atOnce: Int
    let waiting: Int
    private var running = 0
    private var line: [CheckedContinuation<Void, Never>] = []

    /// The line is full: the sign-in is refused, nothing was checked.
    struct Full: Error {}

    init(atOnce: Int, waiting: Int) {
        self.atOnce = max(1, atOnce)
        self.waiting = max(0, waiting)
    }

    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if running < atOnce {
            running += 1
        } else {
            guard line.count < waiting else { throw Full() }
            // The check that finishes hands its place over (`running` stays as it is).
            await withCheckedContinuation { line.append($0) }
        }
        defer { finished() }
        return try await work()
    }

    private func finished() {
        if line.isEmpty {
            running -= 1
        } else {
            line.removeFirst().resume()
        }
    }
}
