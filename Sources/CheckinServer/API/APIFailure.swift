import Hummingbird
import WireAPI

/// An error answer: a status and the `APIError` body of docs/api/openapi.yaml.
public struct APIFailure: HTTPResponseError {
    public var status: HTTPResponse.Status
    public var body: APIError

    public init(_ status: HTTPResponse.Status, _ body: APIError) {
        self.status = status
        self.body = body
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(body, status: status)
    }

    /// The one answer for what does not exist and for what belongs to another tenant.
    public static let notFound = APIFailure(.notFound, .notFound)
    public static let unauthorized = APIFailure(
        .unauthorized,
        APIError(
            code: "unauthorized", message: "no valid token",
            hint: "send 'Authorization: Bearer <token>'; a revoked kiosk enrols again with a new code"))

    public static func badRequest(_ message: String, hint: String? = nil) -> APIFailure {
        APIFailure(.badRequest, APIError(code: "bad_request", message: message, hint: hint))
    }
}
