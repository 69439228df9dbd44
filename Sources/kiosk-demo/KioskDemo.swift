import ArgumentParser

/// The developer's tool: demo events and golden door images drawn by the synthetic door scenes (`KioskScenes`).
/// Not shipped: the Debian packages carry kiosk, kioskctl and checkin-server, which never link the scenes.
@main
struct KioskDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-demo",
        abstract: "Demo events and golden door images for developing and testing the kiosk (not shipped).",
        subcommands: [MakeDemo.self, TestSet.self],
        defaultSubcommand: MakeDemo.self)
}
