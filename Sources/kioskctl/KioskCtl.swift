import ArgumentParser

@main
struct KioskCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskctl",
        abstract: "The operator's tool for the QR check-in kiosk.",
        subcommands: [
            Keygen.self, Issue.self, Decode.self, Roster.self, Status.self, Enroll.self, SyncCommand.self, Queue.self,
        ])
}
