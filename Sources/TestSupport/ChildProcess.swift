import Foundation

/// The package's executables and shell scripts run as real processes by the tests: each call waits for the
/// process and returns its exit status with what it wrote.
public enum ChildProcess {
    /// The package's root folder (where Package.swift is).
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The folder of the build's products (the test bundle's folder, holding `kiosk`, `kioskctl` and
    /// `checkin-server`).
    public static let productsFolder: String = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("kioskctl").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// Runs the product `executable` with `arguments` in `folder`, standard input empty; returns the exit
    /// status, standard output and standard error.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], in folder: String) throws -> (
        status: Int32, out: String, err: String
    ) {
        try run(path: productsFolder + "/" + executable, arguments, in: folder)
    }

    /// Runs the program at `path`, as `run` does. Both pipes are read at once (standard error on a thread of its
    /// own): a child that fills one pipe's 64 KiB while the other is being read would otherwise wait forever.
    @discardableResult
    public static func run(path: String, _ arguments: [String], in folder: String) throws -> (
        status: Int32, out: String, err: String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let errorText = PipeText(err)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = errorText.whole()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), e)
    }

    /// Runs `script` with /bin/sh in `folder`; returns the exit status and standard output and error together.
    public static func shell(_ script: String, in folder: String) throws -> (status: Int32, out: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
