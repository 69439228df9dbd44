import DedicatedThreads

extension ThreadExecutor {
    /// Four threads for every in-process server of the test run (a live Hummingbird application, a webhook
    /// receiver): a test waiting for a child process or a browser must not leave them waiting for the
    /// cooperative pool.
    public static let testServers = ThreadExecutor(threads: 4, name: "test-servers")
}
