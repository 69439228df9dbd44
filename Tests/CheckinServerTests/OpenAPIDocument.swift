import Foundation
import TestSupport
import Yams

/// docs/api/openapi.yaml, read for the contract test: its operations, the schema of each request and answer,
/// and a check of a JSON value against a schema (the JSON Schema keywords the document uses: `$ref`, `type`
/// with "null", `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `oneOf`, `anyOf`,
/// `allOf`, `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`, `pattern`, `format: date-time`). A keyword it does
/// not know fails the check, so the document cannot grow a rule this test silently ignores.
struct OpenAPIDocument: @unchecked Sendable {
    let root: [String: Any]

    static func load() throws -> OpenAPIDocument {
        let text = try String(contentsOfFile: ChildProcess.packageRoot + "/docs/api/openapi.yaml", encoding: .utf8)
        guard let root = try Yams.load(yaml: text) as? [String: Any] else {
            throw ContractFailure("docs/api/openapi.yaml is not a mapping")
        }
        return OpenAPIDocument(root: root)
    }

    /// Every operation: (path template, method in upper case).
    var operations: [Operation] {
        let paths = root["paths"] as? [String: Any] ?? [:]
        return paths.flatMap { path, item in
            ((item as? [String: Any]) ?? [:]).keys.filter { Self.methods.contains($0) }.map {
                Operation(path: path, method: $0.uppercased())
            }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    struct Operation: Hashable, CustomStringConvertible {
        var path: String
        var method: String
        var description: String { "\(method) \(path)" }
    }

    static let methods: Set<String> = ["get", "post", "put", "patch", "delete"]

    func operation(_ operation: Operation) throws -> [String: Any] {
        guard let item = (root["paths"] as? [String: Any])?[operation.path] as? [String: Any],
            let body = item[operation.method.lowercased()] as? [String: Any]
        else { throw ContractFailure("\(operation) is not in docs/api/openapi.yaml") }
        return body
    }

    /// The documented answer for `status` (a `$ref` to components/responses followed); nil when not documented.
    func response(_ operation: Operation, status: Int) throws -> [String: Any]? {
        let responses = try self.operation(operation)["responses"] as? [String: Any] ?? [:]
        guard let response = responses[String(status)] ?? responses["\(status / 100)XX"] else { return nil }
        return try resolve(response)
    }

    /// The schema of `contentType` in a request body or response (nil when it declares no content).
    func schema(in described: [String: Any], contentType: String) throws -> Any? {
        guard let content = described["content"] as? [String: Any] else { return nil }
        guard let media = content[contentType] as? [String: Any] else {
            throw ContractFailure("content \(contentType) not documented (documented: \(content.keys.sorted()))")
        }
        return media["schema"]
    }

    func requestBody(_ operation: Operation) throws -> [String: Any]? {
        guard let body = try self.operation(operation)["requestBody"] else { return nil }
        return try resolve(body)
    }

    /// Follows a `$ref` inside the document.
    func resolve(_ node: Any) throws -> [String: Any] {
        guard let object = node as? [String: Any] else { throw ContractFailure("not a mapping: \(node)") }
        guard let reference = object["$ref"] as? String else { return object }
        guard reference.hasPrefix("#/") else { throw ContractFailure("reference outside the document: \(reference)") }
        var target: Any = root
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = (target as? [String: Any])?[String(part)] else {
                throw ContractFailure("reference not found: \(reference)")
            }
            target = next
        }
        return try resolve(target)
    }

    /// What is wrong with `value` against `schema`, each with where (empty: it conforms).
    func problems(_ value: JSONValue, against node: Any, at path: String = "$") -> [String] {
        let schema: [String: Any]
        do { schema = try resolve(node) } catch { return ["\(path): \(error)"] }
        var found: [String] = []
        let known: Set<String> = [
            "$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "const", "oneOf",
            "anyOf", "allOf", "minimum", "maximum", "minLength", "maxLength", "pattern", "format", "description",
            "minItems",
            "maxItems",
            "default", "example", "examples", "title", "deprecated", "readOnly", "writeOnly",
        ]
        for keyword in schema.keys where !known.contains(keyword) {
            found.append("\(path): schema keyword '\(keyword)' is not checked by this test")
        }
        if let types = schema["type"].map({ ($0 as? [String]) ?? [$0 as? String ?? "?"] }),
            !types.contains(where: { Self.matches(value, type: $0) })
        {
            return found + ["\(path): \(value) is not of type \(types.joined(separator: " or "))"]
        }
        if let constant = schema["const"], JSONValue(yaml: constant) != value {
            found.append("\(path): \(value) is not the constant \(constant)")
        }
        if let members = schema["enum"] as? [Any], !members.contains(where: { JSONValue(yaml: $0) == value }) {
            found.append("\(path): \(value) is not one of \(members)")
        }
        for part in schema["allOf"] as? [Any] ?? [] { found += problems(value, against: part, at: path) }
        if let options = schema["anyOf"] as? [Any], !options.contains(where: { problems(value, against: $0).isEmpty }) {
            found.append("\(path): \(value) matches none of anyOf")
        }
        if let options = schema["oneOf"] as? [Any] {
            let matching = options.filter { problems(value, against: $0, at: path).isEmpty }.count
            if matching != 1 { found.append("\(path): \(value) matches \(matching) of oneOf, not exactly 1") }
        }
        switch value {
        case .string(let text):
            if let least = schema["minLength"] as? Int, text.count < least {
                found.append("\(path): shorter than \(least)")
            }
            if let most = schema["maxLength"] as? Int, text.count > most {
                found.append("\(path): longer than \(most)")
            }
            if let pattern = schema["pattern"] as? String,
                text.range(of: pattern, options: .regularExpression) == nil
            {
                found.append("\(path): \"\(text)\" does not match \(pattern)")
            }
            if schema["format"] as? String == "date-time", ISO8601DateFormatter.withFractions.date(from: text) == nil,
                ISO8601DateFormatter().date(from: text) == nil
            {
                found.append("\(path): \"\(text)\" is not an RFC 3339 date-time")
            }
        case .integer, .number:
            let number: Double =
                if case .integer(let i) = value { Double(i) } else if case .number(let d) = value { d } else { 0 }
            if let least = (schema["minimum"] as? Int).map(Double.init) ?? schema["minimum"] as? Double, number < least
            {
                found.append("\(path): \(number) is below \(least)")
            }
            if let most = (schema["maximum"] as? Int).map(Double.init) ?? schema["maximum"] as? Double, number > most {
                found.append("\(path): \(number) is above \(most)")
            }
        case .array(let items):
            if let least = schema["minItems"] as? Int, items.count < least {
                found.append("\(path): fewer than \(least) items")
            }
            if let most = schema["maxItems"] as? Int, items.count > most {
                found.append("\(path): more than \(most) items")
            }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() {
                    found += problems(item, against: itemSchema, at: "\(path)[\(index)]")
                }
            }
        case .object(let members):
            for name in schema["required"] as? [String] ?? [] where members[name] == nil {
                found.append("\(path): required '\(name)' is missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (name, member) in members {
                if let property = properties[name] {
                    found += problems(member, against: property, at: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"] {
                    if additional as? Bool == false {
                        found.append("\(path): '\(name)' is not a documented property")
                    } else if !(additional is Bool) {
                        found += problems(member, against: additional, at: "\(path).\(name)")
                    }
                }
            }
        case .null, .bool:
            break
        }
        return found
    }

    /// The members `value` carries that `schema` does not list (an answer that grew a field the document does not
    /// know yet), recursively. The properties of `allOf` parts add up; of `oneOf` and `anyOf`, the options
    /// `value` matches count.
    func undocumented(_ value: JSONValue, against node: Any, at path: String = "$") -> [String] {
        switch value {
        case .object(let members):
            guard let properties = properties(of: node, for: value) else { return [] }
            return members.keys.sorted().flatMap { name -> [String] in
                guard let property = properties[name] else { return ["\(path).\(name)"] }
                return undocumented(members[name]!, against: property, at: "\(path).\(name)")
            }
        case .array(let items):
            guard let schema = try? resolve(node), let itemSchema = schema["items"] else { return [] }
            return items.enumerated().flatMap { undocumented($1, against: itemSchema, at: "\(path)[\($0)]") }
        default:
            return []
        }
    }

    /// The properties an object may carry under `node`; nil when any member is allowed.
    private func properties(of node: Any, for value: JSONValue) -> [String: Any]? {
        guard let schema = try? resolve(node) else { return nil }
        if let additional = schema["additionalProperties"], additional as? Bool != false { return nil }
        var all = schema["properties"] as? [String: Any] ?? [:]
        var parts = schema["allOf"] as? [Any] ?? []
        parts += ((schema["oneOf"] as? [Any] ?? []) + (schema["anyOf"] as? [Any] ?? [])).filter {
            problems(value, against: $0).isEmpty
        }
        for part in parts {
            guard let more = properties(of: part, for: value) else { return nil }
            all.merge(more) { first, _ in first }
        }
        return all
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string), ("array", .array), ("object", .object):
            true
        default:
            false
        }
    }
}

struct ContractFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
