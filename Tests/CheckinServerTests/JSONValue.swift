import Foundation

/// A JSON document as read (true and 1 stay apart, unlike `JSONSerialization`'s numbers), for checking answers
/// against the OpenAPI document's schemas.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    static func parse(_ bytes: some Sequence<UInt8>) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// A value of the YAML document (a `const` or an `enum` member), as JSON.
    init?(yaml: Any) {
        switch yaml {
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .integer(let i): "\(i)"
        case .number(let d): "\(d)"
        case .string(let s): "\"\(s)\""
        case .array(let a): "[\(a.count) items]"
        case .object(let o): "{\(o.keys.sorted().joined(separator: ", "))}"
        }
    }
}
