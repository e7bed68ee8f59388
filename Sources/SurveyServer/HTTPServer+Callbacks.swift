import CMicroHTTPD
import SurveyCore

// The C callbacks libmicrohttpd calls on its threads. They capture nothing: what they need comes
// through the context pointers (`HTTPServer.Core`, retained by the server until libmicrohttpd has
// stopped; `HTTPServer.RequestBody`, retained from a request's first call to its completion).

/// Called several times per request: first with the headers only (no context yet), then once per
/// piece of the body, then once with nothing left, when the request is answered.
let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let context, let connection, let requestContext, let uploadSize else { return .NO }
    let core = Unmanaged<HTTPServer.Core>.fromOpaque(context).takeUnretainedValue()
    guard let existing = requestContext.pointee else {
        // The headers are in: a body announced larger than the limit is refused before it is read.
        if let length = headerValue(connection, "Content-Length").flatMap(Int.init), length > core.maximumBodyBytes {
            return queue(bodyTooLarge(limit: core.maximumBodyBytes), on: connection)
        }
        requestContext.pointee = Unmanaged.passRetained(HTTPServer.RequestBody()).toOpaque()
        return .YES
    }
    let body = Unmanaged<HTTPServer.RequestBody>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        // A piece of the body: kept while within the limit, dropped (and the request refused) after.
        if !body.isTooLarge, let uploadData {
            if body.bytes.count + uploadSize.pointee > core.maximumBodyBytes {
                body.isTooLarge = true
                body.bytes = []
            } else {
                body.bytes.append(
                    contentsOf: UnsafeRawBufferPointer(start: UnsafeRawPointer(uploadData), count: uploadSize.pointee))
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if body.isTooLarge { return queue(bodyTooLarge(limit: core.maximumBodyBytes), on: connection) }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
        query: connectionValues(connection, .GET_ARGUMENT_KIND),
        headers: connectionValues(connection, .HEADER_KIND), body: body.bytes)
    return queue(core.handler(request), on: connection)
}

/// Called when a request is over (answered, or its connection closed): lets go of its body.
let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let body = requestContext.pointee else { return }
    Unmanaged<HTTPServer.RequestBody>.fromOpaque(body).release()
    requestContext.pointee = nil
}

/// The `413` answer to a body over the limit, in the API's error form.
func bodyTooLarge(limit: Int) -> HTTPResponse {
    let error: JSONValue = [
        "error": [
            "code": "bodyTooLarge",
            "message": .string("the request body is larger than the limit of \(limit) bytes"),
        ]
    ]
    return HTTPResponse(
        status: 413, headers: [("Content-Type", "application/json"), ("Connection", "close")],
        body: Array(JSONWriter.string(from: error, pretty: false).utf8))
}

/// Queues `response` on `connection`.
func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
    return MHD_queue_response(connection, UInt32(clamping: response.status), made)
}

/// One header of the request, or `nil`.
func headerValue(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

/// Every value of one kind (headers, query arguments) of the request.
func connectionValues(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
    let collected = CollectedValues()
    _ = MHD_get_connection_values(
        connection, kind,
        { context, _, key, value in
            guard let context, let key else { return .YES }
            let collected = Unmanaged<CollectedValues>.fromOpaque(context).takeUnretainedValue()
            collected.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
            return .YES
        }, Unmanaged.passUnretained(collected).toOpaque())
    return withExtendedLifetime(collected) { collected.values }
}

/// The values `connectionValues` collects, reached from the C iterator.
final class CollectedValues {
    var values: [String: String] = [:]
}
