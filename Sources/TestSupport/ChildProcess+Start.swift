import Foundation

extension ChildProcess {
    /// Starts a child that keeps running until the test stops it (a `kiosk`, a `checkin-server serve`, a sync to be
    /// killed): the product `executable` (or the program at an absolute path) with `arguments`, in `folder` when
    /// given, with `environment` added to this process's. Standard input, output and error are the null device
    /// unless given (a `Pipe` or a `FileHandle`). `onExit` is set before the child starts, so it cannot miss a
    /// quick exit. The caller owns the child: `terminate()`, SIGKILL, `await waitUntilExit()`,
    /// `terminateWithoutWaiting()` (Process+Waiting.swift). `run` is for a command that runs to its end.
    public static func start(
        _ executable: String, _ arguments: [String], in folder: String? = nil, environment: [String: String] = [:],
        input: Any? = nil, output: Any? = nil, errors: Any? = nil,
        onExit: (@Sendable (Process) -> Void)? = nil
    ) throws -> Process {
        let process = Process()
        let path = executable.hasPrefix("/") ? executable : productsFolder + "/" + executable
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        if let onExit { process.terminationHandler = onExit }
        try process.run()
        return process
    }
}
