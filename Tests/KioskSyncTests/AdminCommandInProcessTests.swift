import Foundation
import TestSupport
import Testing

@testable import CheckinServerCommands

/// The admin commands that the live tests run inside their process (`LiveProcesses.admin`) behave as the binary
/// does: the same values, the same refusals with the same words and exit status.
@Suite struct AdminCommandInProcessTests {
    @Test func aCommandInsideTheProcessAnswersAsTheBinaryDoes() async throws {
        let inside = LiveProcesses.temporaryFolder()
        let outside = LiveProcesses.temporaryFolder()
        let commands: [[String]] = [
            ["create-tenant", "--name", "Acme"],
            ["create-event", "--tenant", "1", "--name", "Gala", "--starts", "2030-01-01T18:00:00Z", "--ends", "soon"],
            [
                "create-event", "--tenant", "1", "--name", "Gala", "--starts", "2030-01-01T18:00:00Z", "--ends",
                "2030-01-01T23:00:00Z",
            ],
            ["add-guest", "--event", "1", "--name", "Ann", "--email", "zed@"],
            ["cancel-guest", "--event", "1", "--guest", "NOSUCHGUEST"],
            ["no-such-command"],
        ]
        for arguments in commands {
            let process = try await ChildProcess.run(
                "checkin-server", arguments + ["--database", outside + "/checkin.db"], in: outside)
            let command = await CheckinServerCommand.run(arguments + ["--database", inside + "/checkin.db"])
            #expect(command.status == process.status, "\(arguments)")
            #expect(command.out == process.out, "\(arguments)")
            #expect(
                command.err.replacingOccurrences(of: inside, with: "F")
                    == process.err.replacingOccurrences(of: outside, with: "F"), "\(arguments)")
        }
        // Standard input: the organizer's password.
        let organizer = await CheckinServerCommand.run(
            [
                "create-organizer", "--tenant", "1", "--email", "ann@example.org", "--name", "Ann", "--database",
                inside + "/checkin.db",
            ], input: ["a long enough password"])
        #expect(organizer.status == 0 && organizer.out == "1\n", "\(organizer.err)")
        let noPassword = await CheckinServerCommand.run(
            ["set-organizer-password", "--email", "ann@example.org", "--database", inside + "/checkin.db"])
        #expect(noPassword.status != 0 && noPassword.err.contains("give the password on standard input"))
    }
}
