import Foundation
import Glibc

/// A failure while driving Chromium. `message` says what failed and what to do about it; `kind` lets a test
/// expect one particular failure (for example `.browserExited` after killing the browser on purpose).
public struct ChromiumError: Error, CustomStringConvertible, Sendable {
    /// The broad kind of failure.
    public enum Kind: Sendable, Equatable {
        /// Chromium could not be found or did not start.
        case launch
        /// Chromium answered a DevTools command with an error.
        case protocolError
        /// Chromium did not answer in time, or a page condition did not become true in time.
        case timeout
        /// The browser process exited (crashed or was killed) while we were talking to it.
        case browserExited
        /// Page JavaScript threw, or a selector matched no element.
        case javaScript
        /// A navigation failed at the network level (for example connection refused).
        case navigation
        /// Encoding, decoding or writing data failed.
        case io
    }

    /// The broad kind of failure.
    public let kind: Kind
    /// What failed and what to do about it.
    public let message: String

    /// Makes an error of `kind` with a message that says what failed and what to do.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
