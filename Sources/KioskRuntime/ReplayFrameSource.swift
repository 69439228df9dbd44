import GrayImage
import ImageFiles
import KioskCore
import SystemCalls

import struct Foundation.Date

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
/// An entry that cannot be read (a broken image, a FIFO, a directory or a symbolic link loop named like an image,
/// a file over `ImageFile.maximumFileSize`) makes `nextFrame()` throw `ReplayError.unreadableImage` naming the
/// file; the source then moves past it, so a caller that prefers to skip bad files logs the error and calls
/// `nextFrame()` again.
public final class ReplayFrameSource {
    /// The folder, as given.
    public let directory: String
    /// The image file names that will be replayed, in order.
    public let fileNames: [String]
    public let framesPerSecond: Double
    public let start: Date
    private var nextIndex = 0

    /// Lists `directory`. The corresponding C functions are `opendir` and `readdir`.
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

    /// Every name with an image extension (hidden names skipped), sorted by the bytes of the names. What each
    /// name is (a FIFO, a directory, a symbolic link loop, a 30 GB file) is found when it is read, so a bad entry
    /// is reported by `nextFrame()` and skipped instead of dropped without a word.
    static func imageFileNames(in directory: String) throws(ReplayError) -> [String] {
        let opened: OpaquePointer?
        do {
            opened = try SystemCall.run("opendir", failed: { $0 == nil }, { opendir(directory) })
        } catch {
            throw .directoryUnavailable(path: directory, errno: error.errno.rawValue)
        }
        guard let folder = opened else { throw .directoryUnavailable(path: directory, errno: ENOENT) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { continue }
            guard ImageFormat.fileExtensions.contains(name[name.index(after: dot)...].lowercased()) else { continue }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
