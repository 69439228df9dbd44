import ServiceLifecycle

/// What a service whose source ended by itself (the last replayed image, the end of standard input) does next:
/// it stays running until the group shuts it down. A service that returns while the group is shutting another
/// down is "finished unexpectedly" to ServiceLifecycle, and the kiosk exited 1 on a SIGTERM that came as the
/// replay ended.
func stayUntilShutdown() async {
    try? await gracefulShutdown()
}
