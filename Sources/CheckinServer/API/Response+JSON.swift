import Foundation
import Hummingbird
import WireAPI

extension Response {
    /// A JSON answer written with the API's coding (docs/api/openapi.yaml: RFC 3339 times with milliseconds).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try APICoding.encoder().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Response {
    /// A JSON answer already written (`RosterPage.encodedJSON()`, the API's coding written directly).
    static func json(bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension Request {
    /// The body decoded with the API's coding; a malformed body is a `400` that says what is wrong.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: ServerContext) async throws -> T {
        try decodeAPIJSON(T.self, from: try await body.collect(upTo: context.maxUploadSize))
    }
}

/// A body decoded with the API's coding; a malformed body is a `400` that says what is wrong.
func decodeAPIJSON<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
    do {
        return try APICoding.decoder().decode(T.self, from: Data(buffer.readableBytesView))
    } catch {
        throw APIFailure.badRequest(
            "the body is not a valid \(T.self): \(error)",
            hint: "see docs/api/openapi.yaml")
    }
}

/// The headers of the API beyond HTTP's own.
public enum CheckinHeader {
    /// The kiosk's version, sent with every request (`1.4.0`); the roster endpoints answer `426` below the
    /// event's minimum.
    public static let kioskVersion = HTTPFields.Element.Name("Kiosk-Version")!
}
