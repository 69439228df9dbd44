import struct Foundation.Date
import KioskCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replays a folder of still images as if a camera had taken them.
///
/// The folder's `.png`, `.jpg`, `.jpeg` and `.pgm` files (extension case-insensitive; hidden files
/// skipped) are listed once, at `init`, in byte order of their names. Frame `i` is stamped
/// `start + i / fps` and labelled with its file name. Frames are produced as fast as they are asked for:
/// the times are virtual, nothing sleeps.
///
/// An image that cannot be read makes `nextFrame()` throw `ReplayError.unreadableImage` naming the file;
/// the source then moves past it, so a caller that prefers to skip bad files logs the error and calls
/// `nextFrame()` again.
public final class ReplayFrameSource {
    /// The folder, as given.
    public let directory: String
    /// The image file names that will be replayed, in order.
    public let fileNames: [String]
    public let framesPerSecond: Double
    public let start: Date
    private var nextIndex = 0

    /// Lists `directory`. The corresponding C functions are `opendir`, `readdir` and `stat`.
    public init(directory: String, framesPerSecond: Double, start: Date = Date()) throws(ReplayError) {
        guard framesPerSecond.isFinite, framesPerSecond > 0 else { throw .invalidFrameRate(framesPerSecond) }
        let names = try Self.imageFileNames(in: directory)
        guard !names.isEmpty else { throw .noImages(path: directory) }
        self.directory = directory
        self.fileNames = names
        self.framesPerSecond = framesPerSecond
        self.start = start
    }

    /// The next image, decoded to grey; nil after the last one.
    public func nextFrame() async throws(ReplayError) -> Frame? {
        guard nextIndex < fileNames.count else { return nil }
        let index = nextIndex
        nextIndex += 1
        let name = fileNames[index]
        let image: GrayFrame
        do {
            image = try ImageFile.read(path: path(of: name))
        } catch {
            throw .unreadableImage(error)
        }
        return Frame(image: image, time: start.addingTimeInterval(Double(index) / framesPerSecond), label: name)
    }

    /// The path of a listed file.
    public func path(of fileName: String) -> String {
        directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    }

    /// Regular files with an image extension, sorted by the bytes of their names.
    static func imageFileNames(in directory: String) throws(ReplayError) -> [String] {
        guard let folder = opendir(directory) else { throw .directoryUnavailable(path: directory, errno: errno) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { continue }
            guard ImageFormat.fileExtensions.contains(name[name.index(after: dot)...].lowercased()) else { continue }
            var info = stat()
            let fullPath = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard stat(fullPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
