import ArgumentParser
import Foundation
import Synchronization

/// Where the admin commands write their value (standard output: an id, a code, export lines) and their sentences
/// for people (standard error), and where they read a password from: the process's own streams, or a capture when
/// a test runs a command inside its own process (`CheckinServerCommand.run(_:input:)`).
enum CommandIO {
    @TaskLocal static var capture: CommandCapture?

    /// A line of the command's value (`item` written as `print` would).
    static func value(_ item: Any) {
        if let capture { capture.write(out: String(describing: item) + "\n") } else { print(item) }
    }

    /// A sentence for people.
    static func note(_ line: String) {
        if let capture {
            capture.write(err: line + "\n")
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// The next line of standard input, nil at its end.
    static func readLine() -> String? {
        if let capture { return capture.nextInputLine() }
        return Swift.readLine(strippingNewline: true)
    }
}

/// What a command run in the tests' process wrote, and the lines it is given as standard input.
final class CommandCapture: Sendable {
    private struct State {
        var out = ""
        var err = ""
        var input: [String]
    }
    private let state: Mutex<State>

    init(input: [String]) { state = Mutex(State(input: input)) }

    var out: String { state.withLock { $0.out } }
    var err: String { state.withLock { $0.err } }

    func write(out text: String) { state.withLock { $0.out += text } }
    func write(err text: String) { state.withLock { $0.err += text } }

    func nextInputLine() -> String? {
        state.withLock { $0.input.isEmpty ? nil : $0.input.removeFirst() }
    }
}

extension CheckinServerCommand {
    /// Runs the command line `arguments` (without the program's name) inside this process, as the binary would
    /// (the same parsing, validation, errors and exit status) but without exiting it; `input` is its standard
    /// input, line by line. For the tests: an admin command costs no process.
    static func run(_ arguments: [String], input: [String] = []) async -> (status: Int32, out: String, err: String) {
        let capture = CommandCapture(input: input)
        let status: Int32 = await CommandIO.$capture.withValue(capture) {
            do {
                try await execute(arguments)
                return 0
            } catch {
                let message = fullMessage(for: error)
                if !message.isEmpty { CommandIO.note(message) }
                return exitCode(for: error).rawValue
            }
        }
        return (status, capture.out, capture.err)
    }
}
