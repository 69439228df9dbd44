import DedicatedThreads
import Foundation

/// The browser's calls for async code: each runs on a thread of its own while the caller's task is suspended.
/// Waiting for Chromium blocks a thread; on Swift's cooperative pool (as many threads as cores) that thread is
/// missing to whatever Chromium waits for in turn, such as the server under test in the same process. With
/// these, a test drives the browser without holding a pool thread. Same names and arguments as the blocking
/// methods: in async code Swift picks these.
extension BrowserPage {
    public func navigate(to url: String, timeout: Duration? = nil) async throws {
        try await offPool { try self.navigate(to: url, timeout: timeout) }
    }

    @discardableResult
    public func evaluate(_ expression: String, timeout: Duration? = nil) async throws -> String? {
        try await offPool { try self.evaluate(expression, timeout: timeout) }
    }

    public func evaluateJSON<T: Decodable & Sendable>(
        _ expression: String, as type: T.Type = T.self, timeout: Duration? = nil
    ) async throws -> T {
        try await offPool { try self.evaluateJSON(expression, as: type, timeout: timeout) }
    }

    public func waitFor(_ condition: String, timeout: Duration = .seconds(5)) async throws {
        try await offPool { try self.waitFor(condition, timeout: timeout) }
    }

    public func type(into selector: String, text: String) async throws {
        try await offPool { try self.type(into: selector, text: text) }
    }

    public func click(_ selector: String) async throws {
        try await offPool { try self.click(selector) }
    }

    public func submit(_ selector: String, timeout: Duration? = nil) async throws {
        try await offPool { try self.submit(selector, timeout: timeout) }
    }

    public func setViewport(width: Int, height: Int, mobile: Bool = false, deviceScaleFactor: Double = 1)
        async throws
    {
        try await offPool {
            try self.setViewport(width: width, height: height, mobile: mobile, deviceScaleFactor: deviceScaleFactor)
        }
    }

    public func screenshot(to path: String, fullPage: Bool = false, timeout: Duration? = nil) async throws {
        try await offPool { try self.screenshot(to: path, fullPage: fullPage, timeout: timeout) }
    }

    /// `currentURL`, asked off the pool.
    public func url() async throws -> String { try await offPool { try self.currentURL } }
}

extension Chromium {
    public static func launch(extraArguments: [String] = [], timeout: Duration = .seconds(15)) async throws
        -> Chromium
    {
        try await offPool { try Chromium.launch(extraArguments: extraArguments, timeout: timeout) }
    }

    public func newPage(isolated: Bool = false) async throws -> BrowserPage {
        try await offPool { try self.newPage(isolated: isolated) }
    }
}

/// Runs blocking work on a new thread and resumes the caller with its result.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await DedicatedThread.run(named: "browser-call", body)
}
