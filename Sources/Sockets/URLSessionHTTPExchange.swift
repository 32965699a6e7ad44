import Foundation
public import Transports

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPExchange`` over URLSession, which brings HTTPS (via libcurl on Linux).
///
/// Each exchange uses its own ephemeral session: no shared cookie store, no cache, and redirects
/// are not followed, so a credential header never travels to a host the caller did not name.
public struct URLSessionHTTPExchange: HTTPExchange {
    public init() {}

    public func perform(_ request: HTTPRequest) async throws -> HTTPReply {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https" else {
            throw HTTPExchangeError(kind: .other, detail: "not an http(s) URL: \(request.url)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        urlRequest.timeoutInterval = request.timeout.timeInterval
        urlRequest.httpBody = request.body.isEmpty ? nil : Data(request.body)
        for header in request.headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return HTTPReply(status: status, body: Array(data))
        } catch let error as URLError {
            if error.code == .cancelled { throw CancellationError() }
            throw HTTPExchangeError(error)
        }
    }
}

extension Duration {
    /// Seconds as Foundation counts them.
    fileprivate var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Answers every redirect with "don't follow"; the response then comes back as the 3xx it is.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
