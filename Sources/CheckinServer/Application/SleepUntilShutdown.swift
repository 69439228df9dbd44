import ServiceLifecycle

/// The workers' wait between rounds, cut short when the service group starts its graceful shutdown: a worker
/// that slept through SIGTERM held the server up to its whole interval (30 s for the device watch). A step
/// already running is not cut: the workers look for shutdown between steps. Throws `CancellationError` when
/// the wait was cut.
func sleepUntilShutdown(for duration: Duration) async throws {
    try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    try Task.checkCancellation()
    if Task.isShuttingDownGracefully { throw CancellationError() }
}
