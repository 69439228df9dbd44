import DedicatedThreads
import Foundation
import ServiceLifecycle

/// Runs blocking work (a camera read, a keyboard read) on a thread of its own and waits for it to end: `stop`
/// is called on graceful shutdown or cancellation and must make `body` return soon; the thread has ended
/// before this returns, so nothing outlives the service that started it.
func runOnDedicatedThread(
    named name: String, body: @escaping @Sendable () -> Void,
    stop: @escaping @Sendable () -> Void
) async {
    await withTaskCancellationOrGracefulShutdownHandler {
        await DedicatedThread.run(named: name, body)
    } onCancelOrGracefulShutdown: {
        stop()
    }
}
