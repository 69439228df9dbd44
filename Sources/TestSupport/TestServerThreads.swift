import DedicatedThreads

extension ThreadExecutor {
    /// Four threads for every in-process server of the test run (a live Hummingbird application, a webhook
    /// receiver): a test waiting for a child process or a browser must not leave them waiting for the
    /// cooperative pool.
    public static let testServers = ThreadExecutor(threads: 4, name: "test-servers")
}

extension ThreadExecutor {
    /// Threads for the tests that wait by blocking (a child's screen, a notify socket): what blocks here leaves
    /// the cooperative pool to the rest of the suite, whose child processes' pipe reads (swift-subprocess) wait for
    /// it.
    public static let blockingWaits = ThreadExecutor(threads: 4, name: "blocking-waits")
}

extension ThreadExecutor {
    /// Two threads for the tests' PostgreSQL bookkeeping (making, copying and dropping their databases, the
    /// template's migration): every PostgreSQL test waits for it, so it must not queue behind the suite's work
    /// on the cooperative pool.
    public static let testDatabases = ThreadExecutor(threads: 2, name: "test-databases")
}
