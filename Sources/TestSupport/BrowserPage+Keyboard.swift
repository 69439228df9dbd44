import Foundation

/// The keyboard, as a person without a mouse uses it: real key events through the DevTools protocol (Chromium
/// moves the focus and activates what has it exactly as for a physical key), not JavaScript calls.
extension BrowserPage {
    /// A key the tests press: its DOM `key`, `code` and Windows virtual key code (what Chromium's input needs).
    public enum Key: Sendable {
        case tab, shiftTab, enter, space

        var event: (key: String, code: String, keyCode: Int, modifiers: Int, text: String?) {
            switch self {
            case .tab: ("Tab", "Tab", 9, 0, nil)
            case .shiftTab: ("Tab", "Tab", 9, 8, nil)
            case .enter: ("Enter", "Enter", 13, 0, "\r")
            case .space: (" ", "Space", 32, 0, " ")
            }
        }
    }

    /// Presses and releases `key`. With `waitingForLoad`, waits for the page the key loads (Enter in a form).
    public func press(_ key: Key, waitingForLoad: Bool = false, timeout: Duration? = nil) throws {
        let timeout = timeout ?? browser.defaultTimeout
        let deadline = ContinuousClock.now + timeout
        let loadsBefore = connection.state(of: sessionID)?.loadCount ?? 0
        let event = key.event
        var down: [String: Any] = [
            "type": event.text == nil ? "rawKeyDown" : "keyDown", "key": event.key, "code": event.code,
            "windowsVirtualKeyCode": event.keyCode, "nativeVirtualKeyCode": event.keyCode,
            "modifiers": event.modifiers,
        ]
        if let text = event.text { down["text"] = text }
        try send("Input.dispatchKeyEvent", down, timeout: timeout)
        try send(
            "Input.dispatchKeyEvent",
            [
                "type": "keyUp", "key": event.key, "code": event.code, "windowsVirtualKeyCode": event.keyCode,
                "nativeVirtualKeyCode": event.keyCode, "modifiers": event.modifiers,
            ], timeout: timeout)
        guard waitingForLoad else { return }
        try connection.wait(for: sessionID, until: deadline, what: "a page load after pressing \(event.key)") {
            $0.loadCount > loadsBefore ? () : nil
        }
    }

    /// Types `text` into whatever has the focus, as a keyboard would (`Input.insertText`).
    public func typeText(_ text: String) throws {
        try send("Input.insertText", ["text": text])
    }

    /// Presses Tab until the focused element matches the CSS `selector`, at most `limit` times; returns how many
    /// presses it took. Throws when the focus never gets there (the element cannot be reached by keyboard).
    @discardableResult
    public func tab(to selector: String, limit: Int = 60) throws -> Int {
        for presses in 1...limit {
            try press(.tab)
            let there = try evaluate(
                "String(document.activeElement !== null && document.activeElement.matches(\(Self.literal(selector))))")
            if there == "true" { return presses }
        }
        throw ChromiumError(.javaScript, "\(limit) presses of Tab never reached \(selector)")
    }
}

extension BrowserPage {
    public func press(_ key: Key, waitingForLoad: Bool = false, timeout: Duration? = nil) async throws {
        try await offPool { try self.press(key, waitingForLoad: waitingForLoad, timeout: timeout) }
    }

    public func typeText(_ text: String) async throws {
        try await offPool { try self.typeText(text) }
    }

    @discardableResult
    public func tab(to selector: String, limit: Int = 60) async throws -> Int {
        try await offPool { try self.tab(to: selector, limit: limit) }
    }
}
