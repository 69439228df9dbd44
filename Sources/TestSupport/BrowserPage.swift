import Foundation
import Glibc

/// One tab of a `Chromium`, for driving a web page from a test: navigate, run JavaScript, fill in and submit
/// forms, wait for conditions, take screenshots, and read the HTTP status of the last page load.
///
/// Sendable, but meant to be driven by one test at a time (interleaving two tasks' navigations on the same page
/// makes "the last load" ambiguous). Each method takes an optional `timeout`; `nil` means the browser's
/// `defaultTimeout`. JavaScript dialogs (`alert`, `confirm`, `prompt`) are accepted automatically and recorded
/// in `dialogs`.
public final class BrowserPage: Sendable {
    /// The browser this page belongs to (kept alive as long as the page is).
    public let browser: Chromium
    let targetID: String
    let sessionID: String
    let browserContextID: String?

    init(browser: Chromium, targetID: String, sessionID: String, browserContextID: String?) {
        self.browser = browser
        self.targetID = targetID
        self.sessionID = sessionID
        self.browserContextID = browserContextID
    }

    var connection: CDPConnection { browser.connection }

    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], timeout: Duration? = nil) throws
        -> [String: Any]
    {
        try connection.send(method, parameters, session: sessionID, timeout: timeout ?? browser.defaultTimeout)
    }

    // MARK: Navigation

    /// Loads `url` and waits for its load event. HTTP error statuses (404, 403, ...) are not errors: read them
    /// from `status`. Throws for network failures (connection refused, bad host) and on timeout.
    public func navigate(to url: String, timeout: Duration? = nil) throws {
        let timeout = timeout ?? browser.defaultTimeout
        let deadline = ContinuousClock.now + timeout
        let answer = try send("Page.navigate", ["url": url], timeout: timeout)
        // Chromium reports an HTTP error status with an empty body as this "error", but still shows a page.
        if let errorText = answer["errorText"] as? String, errorText != "net::ERR_HTTP_RESPONSE_CODE_FAILURE" {
            throw ChromiumError(.navigation, "Navigating to \(url) failed: \(errorText). Is the server running?")
        }
        guard let loaderID = answer["loaderId"] as? String else { return }  // same-document (#fragment) navigation
        try connection.wait(for: sessionID, until: deadline, what: "the page \(url) to load (within \(timeout))") {
            $0.loadedLoaders.contains(loaderID) ? () : nil
        }
    }

    /// The HTTP status of the main document of the most recent page load (navigation or form submission; after
    /// redirects, the final page's), or nil before the first load. Chromium reports `data:` URLs as 200.
    public var status: Int? { connection.state(of: sessionID)?.lastStatus }

    /// The messages of JavaScript dialogs that were accepted automatically, oldest first.
    public var dialogs: [String] { connection.state(of: sessionID)?.dialogs ?? [] }

    /// The page's URL as the address bar would show it (also for Chromium's own error pages).
    public var currentURL: String {
        get throws {
            let answer = try connection.send(
                "Target.getTargetInfo", ["targetId": targetID], timeout: browser.defaultTimeout)
            guard let info = answer["targetInfo"] as? [String: Any], let url = info["url"] as? String else {
                throw ChromiumError(.protocolError, "Target.getTargetInfo answered without a URL: \(answer).")
            }
            return url
        }
    }

    // MARK: JavaScript

    /// Evaluates a JavaScript expression in the page (awaiting it if it is a promise) and returns the result:
    /// strings as they are, `null`/`undefined` as nil, anything else as JSON text (`42`, `true`, `[1,2]`).
    /// Top-level `await` and repeated `let` declarations are allowed. Throws `.javaScript` if it throws.
    @discardableResult
    public func evaluate(_ expression: String, timeout: Duration? = nil) throws -> String? {
        switch try evaluateValue(expression, timeout: timeout) {
        case nil, is NSNull: return nil
        case let string as String: return string
        case let value?: return String(decoding: try jsonData(value, expression), as: UTF8.self)
        }
    }

    /// Evaluates a JavaScript expression like `evaluate` and decodes its JSON value as `T`
    /// (for example `try page.evaluateJSON("[...document.querySelectorAll('li')].map(e => e.textContent)",
    /// as: [String].self)`).
    public func evaluateJSON<T: Decodable>(_ expression: String, as type: T.Type = T.self, timeout: Duration? = nil)
        throws -> T
    {
        let value = try evaluateValue(expression, timeout: timeout) ?? NSNull()
        do {
            return try JSONDecoder().decode(T.self, from: try jsonData(value, expression))
        } catch let error as ChromiumError {
            throw error
        } catch {
            throw ChromiumError(.io, "The value of `\(expression)` does not decode as \(T.self): \(error).")
        }
    }

    /// Polls the JavaScript expression `condition` every 50 ms until it is truthy; throws `.timeout` (naming the
    /// condition and the last JavaScript error, if any) when it is still false after `timeout`. Exceptions and
    /// navigations in progress count as "not yet".
    public func waitFor(_ condition: String, timeout: Duration = .seconds(5)) throws {
        let deadline = ContinuousClock.now + timeout
        var lastProblem = ""
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            do {
                let value = try evaluateValue("Boolean(\(condition))", timeout: max(remaining, .milliseconds(500)))
                if value as? Bool == true { return }
                lastProblem = ""
            } catch let error as ChromiumError where error.kind == .javaScript || error.kind == .protocolError {
                lastProblem = " Last error: \(error.message)"
            }
            if remaining <= .zero {
                throw ChromiumError(
                    .timeout,
                    "`\(condition)` was still false after \(timeout) on \((try? currentURL) ?? "the page").\(lastProblem)"
                )
            }
            usleep(50_000)
        }
    }

    /// Runs `Runtime.evaluate` and returns the result's JSON value (nil for `undefined`).
    private func evaluateValue(_ expression: String, timeout: Duration?) throws -> Any? {
        let answer = try send(
            "Runtime.evaluate",
            [
                "expression": expression, "returnByValue": true, "awaitPromise": true, "replMode": true,
                "userGesture": true,
            ],
            timeout: timeout)
        if let details = answer["exceptionDetails"] as? [String: Any] {
            let exception = details["exception"] as? [String: Any]
            let description = exception?["description"] as? String ?? details["text"] as? String ?? "\(details)"
            let firstLine = description.split(separator: "\n").first.map(String.init) ?? description
            throw ChromiumError(.javaScript, "JavaScript `\(expression)` threw: \(firstLine)")
        }
        let result = answer["result"] as? [String: Any]
        return result?["value"]
    }

    private func jsonData(_ value: Any, _ expression: String) throws -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        } catch {
            throw ChromiumError(.io, "The value of `\(expression)` could not be turned into JSON: \(error).")
        }
    }

    // MARK: Forms

    /// Sets the value of the element matching the CSS `selector` to `text` and dispatches `input` and `change`
    /// events, as if the user had typed it. Throws `.javaScript` if nothing matches.
    public func type(into selector: String, text: String) throws {
        try evaluate(
            Self.onElement(
                selector,
                """
                element.focus();
                element.value = \(Self.literal(text));
                element.dispatchEvent(new Event('input', { bubbles: true }));
                element.dispatchEvent(new Event('change', { bubbles: true }));
                """))
    }

    /// Clicks the element matching the CSS `selector` (`element.click()`); does not wait for anything it
    /// triggers. Use `submit` when the click loads a new page.
    public func click(_ selector: String) throws {
        try evaluate(Self.onElement(selector, "element.click();"))
    }

    /// Submits a form and waits for the page it loads: `selector` names either the form (submitted with
    /// `requestSubmit()`, so validation and submit handlers run) or a submit button (clicked). Read the response
    /// status from `status` afterwards.
    public func submit(_ selector: String, timeout: Duration? = nil) throws {
        let timeout = timeout ?? browser.defaultTimeout
        let deadline = ContinuousClock.now + timeout
        let loadsBefore = connection.state(of: sessionID)?.loadCount ?? 0
        try evaluate(
            Self.onElement(
                selector, "if (element instanceof HTMLFormElement) element.requestSubmit(); else element.click();"),
            timeout: timeout)
        try connection.wait(
            for: sessionID, until: deadline,
            what: "a page load after submitting \(selector) (within \(timeout); did form validation block it?)"
        ) { $0.loadCount > loadsBefore ? () : nil }
    }

    /// JavaScript that runs `body` with `element` bound to the first match of `selector`, or throws.
    private static func onElement(_ selector: String, _ body: String) -> String {
        """
        (() => {
        const element = document.querySelector(\(literal(selector)));
        if (!element) throw new Error('no element matches ' + \(literal(selector)));
        \(body)
        })()
        """
    }

    /// `string` as a JavaScript string literal.
    static func literal(_ string: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [string]),
            let array = String(data: data, encoding: .utf8)
        else { return "''" }
        return String(array.dropFirst().dropLast())
    }

    // MARK: Viewport and screenshots

    /// Emulates a screen of `width` x `height` CSS pixels. `mobile` also turns on touch emulation and mobile
    /// layout (meta viewport); a phone is `width: 390, height: 844, mobile: true, deviceScaleFactor: 2`.
    public func setViewport(width: Int, height: Int, mobile: Bool = false, deviceScaleFactor: Double = 1) throws {
        try send(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "mobile": mobile, "deviceScaleFactor": deviceScaleFactor])
        try send("Emulation.setTouchEmulationEnabled", ["enabled": mobile])
    }

    /// Writes a PNG screenshot of the viewport (or, with `fullPage`, of the whole scrollable page) to `path`,
    /// creating missing directories. Its pixel size is the CSS size times the device scale factor.
    public func screenshot(to path: String, fullPage: Bool = false, timeout: Duration? = nil) throws {
        var parameters: [String: Any] = ["format": "png"]
        if fullPage {
            let metrics = try send("Page.getLayoutMetrics", timeout: timeout)
            let size = metrics["cssContentSize"] as? [String: Any]
            guard let width = size?["width"] as? Double ?? (size?["width"]).flatMap(intValue).map(Double.init),
                let height = size?["height"] as? Double ?? (size?["height"]).flatMap(intValue).map(Double.init)
            else {
                throw ChromiumError(.protocolError, "Page.getLayoutMetrics answered without a content size: \(metrics)")
            }
            parameters["clip"] = ["x": 0, "y": 0, "width": width, "height": height, "scale": 1]
            parameters["captureBeyondViewport"] = true
        }
        let answer = try send("Page.captureScreenshot", parameters, timeout: timeout)
        guard let base64 = answer["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw ChromiumError(.protocolError, "Page.captureScreenshot answered without base64 PNG data.")
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: url, options: .atomic)
        } catch {
            throw ChromiumError(.io, "Could not write the screenshot to \(path): \(error).")
        }
    }

    // MARK: Closing

    /// Closes the tab (and its isolated browser context, if it has one).
    public func close() throws {
        try connection.send("Target.closeTarget", ["targetId": targetID], timeout: browser.defaultTimeout)
        connection.unregister(session: sessionID)
        if let browserContextID {
            try connection.send(
                "Target.disposeBrowserContext", ["browserContextId": browserContextID], timeout: browser.defaultTimeout)
        }
    }
}
