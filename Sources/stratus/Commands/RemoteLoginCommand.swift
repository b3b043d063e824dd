import ArgumentParser
import Foundation
import StratusCKWS
import StratusCloud
import StratusRemote
#if canImport(Glibc)
import Glibc
#endif

/// `stratus remote login`: signs a user in to a remote container as a web page would, and keeps
/// the web auth token in the credentials file.
struct RemoteLoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a remote container in the browser (or paste a web auth token).",
        discussion: """
            Asks the container to sign in (users/current), opens the sign-in page its answer names (or prints it with \
            --no-browser) and waits for the token on a loopback callback, http://127.0.0.1:PORT/callback: set that URL \
            as the API token's Sign In Callback in the CloudKit Console, with the same --port. A `stratus serve` remote is \
            sent to the callback directly. --paste reads a token from standard input instead, without echo. Then it \
            checks the token and says who is signed in.
            """
    )

    @Argument(help: "The remote's name.") var name: String
    @Option(help: "The container's API token (ckAPIToken); kept for later calls (default: the one kept).") var apiToken: String?
    @Flag(help: "Read a web auth token from standard input (not echoed) instead of signing in in the browser.") var paste = false
    @Flag(help: "Print the sign-in URL instead of opening a browser.") var noBrowser = false
    @Option(help: "The loopback port of the callback (0: a free one; a real container needs its registered port).") var port: Int = 0
    @Option(help: "Seconds to wait for the browser's sign-in.") var timeout: Int = 300

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if timeout < 1 { throw ValidationError("--timeout must be at least 1 second") }
    }

    func run() throws {
        let folder = RemoteCommand.configurationFolder
        let remote = try folder.remote(named: name)
        let kept = try folder.credentials(of: name).apiToken
        guard let apiToken = apiToken ?? kept else {
            throw CommandFailure.usage("give the container's API token with --api-token (CloudKit Console: API Access)")
        }
        let token = paste ? try pastedToken() : try browserToken(remote: remote, apiToken: apiToken)
        try folder.updateCredentials(of: name) { credentials in
            credentials.apiToken = apiToken
            credentials.webAuthToken = token
        }
        // The check goes through the session, so a token it rotates is kept too.
        let user = try RemoteCommand.service(named: name).currentUser()
        Output.line("signed in to \(name) (\(remote.endpoint.container), \(remote.endpoint.environment)) as \(user)")
    }

    /// The browser flow: the sign-in URL of a 421, the token on the loopback callback.
    private func browserToken(remote: Remote, apiToken: String) throws -> String {
        let client = CKWSClient(name: name, endpoint: remote.endpoint, credentials: RemoteCredentials(apiToken: apiToken))
        let answer = try client.exchange("public", "users/current", signedIn: false)
        guard answer.status == 421, let redirect = answer.json["redirectURL"]?.stringValue else {
            if answer.status != 200 { throw client.failure(answer) }
            throw CommandFailure.failed("\(remote.endpoint.url) did not ask to sign in (users/current answered \(answer.status)); use --paste")
        }
        let callback = try LoopbackCallback(port: port)
        var url = redirect
        if remote.endpoint.url != RemoteEndpoint.appleURL, var components = URLComponents(string: redirect) {
            // A `stratus serve` takes its callback in the URL; Apple's is registered with the API token.
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "callback", value: callback.url)]
            url = components.string ?? redirect
        }
        if noBrowser || !openBrowser(url) {
            Output.line("Open this URL in a browser to sign in:")
            Output.line(url)
        } else {
            Output.warn("Opened the sign-in page in the browser; if it did not open, visit: \(url)")
        }
        Output.warn("Waiting for the sign-in at \(callback.url) (Ctrl-C stops)...")
        guard let token = callback.waitForToken(timeout: timeout) else {
            throw CommandFailure.failed("no sign-in arrived in \(timeout) seconds; try again, or use --paste")
        }
        return token
    }

    /// A token from standard input; not echoed when it is a terminal.
    private func pastedToken() throws -> String {
        var saved = termios()
        let terminal = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &saved) == 0
        if terminal {
            FileHandle.standardError.write(Data("Paste the web auth token (it is not shown), then Return: ".utf8))
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if terminal {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        let token = (line ?? "").trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "+")
        guard !token.isEmpty else { throw CommandFailure.usage("no token on standard input") }
        return token
    }

    /// Opens `url` with the desktop's opener; false when there is none.
    private func openBrowser(_ url: String) -> Bool {
        for opener in ["/usr/bin/xdg-open", "/usr/bin/open"] where FileManager.default.isExecutableFile(atPath: opener) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [url]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil { return true }
        }
        return false
    }
}

extension RemoteCommand {
    /// The remote container `name` as a service, its session's rotated tokens kept in the
    /// credentials file; `waiting` is told of each throttled answer waited out.
    static func service(named name: String, retry: RetryPolicy = RetryPolicy(),
                        waiting: (@Sendable (CKWSClient.RetryWait) -> Void)? = nil) throws -> RemoteCloudService {
        let folder = configurationFolder
        let remote = try folder.remote(named: name)
        let client = CKWSClient(name: name, endpoint: remote.endpoint, credentials: try folder.credentials(of: name),
                                keeper: CredentialsFileKeeper(configuration: folder, remote: name), retry: retry, waiting: waiting)
        return RemoteCloudService(client: client)
    }
}
