import Logging
import ServiceLifecycle

/// Staff's keyboard as a service: keys to the door loop until the end of input or shutdown; the terminal is
/// restored and the reading thread joined when input ends, and the service returns at shutdown.
final class KeyboardService: Service {
    private let keyboard: KeyboardInput
    private let inbox: DoorInbox

    init(keyboard: KeyboardInput, inbox: DoorInbox) {
        self.keyboard = keyboard
        self.inbox = inbox
    }

    func run() async {
        let keyboard = self.keyboard
        let inbox = self.inbox
        await runOnDedicatedThread(
            named: "keyboard", body: { keyboard.read { inbox.post(.key($0)) } },
            stop: { keyboard.stop() })
        keyboard.restore()
        await stayUntilShutdown()
    }
}
