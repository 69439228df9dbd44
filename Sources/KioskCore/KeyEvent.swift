/// A key pressed on the door's keyboard.
public enum KeyEvent: Equatable, Sendable {
    case character(Character)
    case enter
    case escape
    case backspace
    /// Ctrl-R: fetch the roster's changes from the server now.
    case refreshRoster
    /// Ctrl-U: undo one of the last check-ins at this door (a mistaken admit).
    case undo

    /// Turns terminal input bytes into keys. Escape sequences (arrows, function keys) are dropped;
    /// a lone ESC is Esc.
    public struct Parser: Sendable {
        private var inEscape = false
        private var sawBracket = false
        private var utf8: [UInt8] = []

        public init() {}

        public mutating func feed(_ byte: UInt8) -> KeyEvent? {
            if inEscape {
                if !sawBracket && (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O")) {
                    sawBracket = true
                    return nil
                }
                if sawBracket {
                    if (0x40...0x7E).contains(byte) {
                        inEscape = false
                        sawBracket = false
                    }
                    return nil
                }
                inEscape = false
                // ESC followed by an ordinary key: the ESC stood alone.
                _ = feed(byte)
                return .escape
            }
            switch byte {
            case 0x1B:
                inEscape = true
                return nil
            case 0x0D, 0x0A: return .enter
            case 0x7F, 0x08: return .backspace
            case 0x12: return .refreshRoster
            case 0x15: return .undo
            case 0x20..<0x7F: return .character(Character(UnicodeScalar(byte)))
            case 0x80...:
                utf8.append(byte)
                let s = String(validating: utf8, as: UTF8.self)
                if let s, let c = s.first {
                    utf8.removeAll()
                    return .character(c)
                }
                if utf8.count >= 4 { utf8.removeAll() }
                return nil
            default: return nil
            }
        }

        /// A pending lone ESC once input has gone quiet.
        public mutating func flush() -> KeyEvent? {
            guard inEscape, !sawBracket else { return nil }
            inEscape = false
            return .escape
        }

        public mutating func parse(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
            var keys: [KeyEvent] = []
            for b in bytes {
                if inEscape && !sawBracket && b != UInt8(ascii: "[") && b != UInt8(ascii: "O") {
                    inEscape = false
                    keys.append(.escape)
                }
                if let k = feed(b) { keys.append(k) }
            }
            return keys
        }
    }
}
