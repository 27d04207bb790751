import Foundation
import Glibc

/// Headless Chromium driven through chromedriver's W3C WebDriver HTTP API, for the tests that
/// look at pages as a browser shows them. A small client of its own (no other dependency, no
/// Python in the test run): only the calls the tests need — open a page, run a script, click, press keys, take a screenshot.
public final class WebDriver {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    private let driver: Process
    private let base: URL
    private let session: String
    private let profile: String

    /// Whether this machine has chromium and chromedriver (`.ci/setup` installs both).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    /// Starts chromedriver on a free port and a headless Chromium session with a fresh profile.
    public init(windowWidth: Int = 1280, windowHeight: Int = 900) async throws {
        let port = try Self.freePort()
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = URL(string: "http://127.0.0.1:\(port)")!
        profile = BuiltProducts.temporaryDirectory(prefix: "cellhost-chromium")
        var ready = false
        var lastError = "no answer"
        for _ in 0..<100 {
            do {
                let status = try await Self.request(base.appendingPathComponent("status"), method: "GET", body: nil)
                if (status["value"] as? [String: Any])?["ready"] as? Bool == true { ready = true; break }
            } catch { lastError = "\(error)" }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard ready else { kill(driver.processIdentifier, SIGKILL); throw Failure("chromedriver did not start on port \(port): \(lastError)") }
        let arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--user-data-dir=\(profile)", "--window-size=\(windowWidth),\(windowHeight)", "--allow-file-access-from-files"]
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome", "goog:chromeOptions": ["binary": "/usr/bin/chromium", "args": arguments]]]]
        do {
            let answer = try await Self.request(base.appendingPathComponent("session"), method: "POST", body: capabilities)
            guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
                throw Failure("chromedriver gave no session: \(answer)")
            }
            session = id
        } catch {
            kill(driver.processIdentifier, SIGKILL)
            throw error
        }
    }

    /// Ends the browser and chromedriver, and removes the profile.
    public func quit() async {
        _ = try? await call("", method: "DELETE")
        // chromedriver does not always end on SIGTERM; it holds nothing worth a clean exit.
        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
        try? FileManager.default.removeItem(atPath: profile)
    }

    public func open(_ url: String) async throws { _ = try await call("/url", body: ["url": url]) }

    /// Runs `script` (a function body; `arguments[0]`… are `args`) in the page and returns its result.
    @discardableResult
    public func execute(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await call("/execute/sync", body: ["script": script, "args": args])
    }

    /// Waits until `condition` (a script returning a boolean) holds, or throws after `seconds`.
    public func waitUntil(_ condition: String, seconds: Double = 10, _ what: String) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if (try? await execute("return !!(\(condition));")) as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure("timed out after \(seconds) s waiting for \(what)")
    }

    public func element(_ css: String) async throws -> String {
        let value = try await call("/element", body: ["using": "css selector", "value": css])
        guard let found = value as? [String: Any], let id = found.values.first as? String else { throw Failure("no element \(css)") }
        return id
    }

    public func click(_ css: String) async throws {
        _ = try await call("/element/\(try await element(css))/click", body: [:])
    }

    /// Key names as WebDriver spells them.
    public enum Key: String {
        case left = "\u{E012}", right = "\u{E014}", up = "\u{E013}", down = "\u{E015}"
    }

    /// Types `text` (or special keys) into the element matched by `css`.
    public func press(_ text: String, in css: String) async throws {
        _ = try await call("/element/\(try await element(css))/value", body: ["text": text])
    }

    /// A PNG of the window.
    public func screenshot() async throws -> Data {
        guard let text = try await call("/screenshot", method: "GET") as? String, let data = Data(base64Encoded: text) else {
            throw Failure("no screenshot")
        }
        return data
    }

    /// Saves a screenshot to `path` and prints where it is: the test failed, and this shows how the page looked.
    public func keepScreenshot(at path: String) async {
        guard let data = try? await screenshot() else { print("could not take a screenshot for \(path)"); return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if FileManager.default.createFile(atPath: path, contents: data) { print("screenshot of the failing page: \(path)") }
    }

    private func call(_ path: String, method: String = "POST", body: [String: Any]? = nil) async throws -> Any? {
        let url = URL(string: base.absoluteString + "/session/" + session + path)!
        let answer = try await Self.request(url, method: method, body: method == "POST" ? (body ?? [:]) : nil)
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure("WebDriver \(path): \(error): \(value["message"] as? String ?? "")")
        }
        return answer["value"]
    }

    /// One HTTP/1.1 exchange with chromedriver on loopback (`Connection: close`, the body read to
    /// the end). Not URLSession: chromedriver writes headers without a space after the colon
    /// ("Content-Length:250"), which this Foundation's URLSession refuses ("Failed writing header").
    private static func request(_ url: URL, method: String, body: [String: Any]?) async throws -> [String: Any] {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let hasBody = body != nil
        let data = try await offTheTaskPool { try exchange(url, method: method, payload: payload, hasBody: hasBody) }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Failure("not a JSON object from \(url)") }
        return object
    }

    /// The blocking socket exchange behind `request`: the answer's body.
    private static func exchange(_ url: URL, method: String, payload: Data, hasBody: Bool) throws -> Data {
        var head = "\(method) \(url.path) HTTP/1.1\r\nHost: 127.0.0.1:\(url.port ?? 80)\r\nConnection: close\r\n"
        if hasBody { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(payload.count)\r\n\r\n"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("no socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(url.port ?? 80).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw Failure("cannot connect to \(url)") }
        let request = Array(head.utf8) + [UInt8](payload)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure("cannot send to \(url)") }
            sent += n
        }
        // Read the head, then as much body as its Content-Length says (chromedriver may keep the connection open).
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var bodyStart: Int?
        var bodyLength: Int?
        while bodyLength.map({ answer.count < bodyStart! + $0 }) ?? true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer += buffer[0..<n]
            if bodyStart == nil, let split = answer.firstRange(of: Array("\r\n\r\n".utf8)) {
                bodyStart = split.upperBound
                let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        guard let bodyStart else { throw Failure("no HTTP answer from \(url)") }
        return Data(answer[bodyStart...])
    }

    /// A port nothing listens on now (bound to port 0 and released).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Runs blocking work (a socket exchange, a child process) on a thread of its own: tests run
/// side by side on the few threads of the concurrency pool, and one that blocks there stalls the
/// others' timing (a preview test measured its page's update late while a run blocked the pool).
public func offTheTaskPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Swift.Result(catching: work)) }
    }
}
