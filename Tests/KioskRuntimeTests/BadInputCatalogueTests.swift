import Foundation
import TestSupport
import Testing

/// The bad-input catalogue: every line of `Tests/BadInput/catalogue.tsv` run through the real `kiosk` and `kioskctl`
/// of this build, each in its own folder, checking the exit status and the key words of what they say.
/// How to add a case: `Tests/BadInput/README.md`.
@Suite struct BadInputCatalogueTests {
    /// At most this many commands at once: the machine that builds is shared.
    static let slots = CommandSlots(3)

    @Test(arguments: BadInputCatalogue.load())
    func badInput(_ c: BadInputCase) async throws {
        if let problem = c.lineError {
            Issue.record("bad input '\(c.name)' (\(c.location)): the line cannot be read: \(problem)")
            return
        }
        var workspace: BadInputWorkspace
        do {
            workspace = try await BadInputWorkspace(for: c)
            for action in c.setup { try await workspace.perform(action) }
        } catch {
            Issue.record("bad input '\(c.name)' (\(c.location)): setup failed: \(error)")
            return
        }
        var arguments = c.command.map(workspace.expand)
        arguments[0] = ChildProcess.productsFolder + "/" + arguments[0]
        let command = BadInputCommand(
            arguments: arguments, workingDirectory: workspace.workingDirectory,
            outputFolder: workspace.root)
        await Self.slots.acquire()
        let ran: Result<BadInputCommand.Outcome, any Error>
        do { ran = .success(try await command.run()) } catch { ran = .failure(error) }
        await Self.slots.release()
        var problems = workspace.finish()
        let outcome: BadInputCommand.Outcome
        switch ran {
        case .success(let o): outcome = o
        case .failure(let error):
            Issue.record("bad input '\(c.name)' (\(c.location)): cannot run \(command.display): \(error)")
            return
        }

        if outcome.signal || outcome.status != c.exitStatus {
            problems.insert("expected exit \(c.exitStatus), got \(outcome.summary)", at: 0)
        }
        let output = (outcome.stdout + "\n" + outcome.stderr).lowercased()
        for word in c.keyWords {
            let alternatives = word.alternatives.map(workspace.expand)
            let found = alternatives.contains { output.contains($0.lowercased()) }
            let quoted = alternatives.map { "\"\($0)\"" }.joined(separator: " or ")
            if word.mustBeAbsent, found { problems.append("says \(quoted), which it must not") }
            if !word.mustBeAbsent, !found { problems.append("does not say \(quoted)") }
        }
        guard !problems.isEmpty else {
            workspace.remove()
            return
        }
        Issue.record(
            Comment(
                rawValue: """
                    bad input '\(c.name)' (\(c.location)):
                      \(problems.joined(separator: "\n  "))
                    command: \(command.display)
                    \(outcome.summary) after \(String(format: "%.1f", outcome.seconds)) s; its folder is kept: \(workspace.root)
                    --- stdout ---
                    \(Self.excerpt(outcome.stdout))
                    --- stderr ---
                    \(Self.excerpt(outcome.stderr))
                    """))
    }

    /// Long output cut in the middle.
    static func excerpt(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .newlines)
        guard trimmed.count > 2400 else { return trimmed }
        return trimmed.prefix(1200) + "\n[... \(trimmed.count - 2400) characters ...]\n" + trimmed.suffix(1200)
    }
}

/// A counting semaphore for async code.
actor CommandSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
