import Foundation
import KioskCore
import KioskDisplay
import KioskFramebuffer
import KioskSound
import Logging

/// Picks the door's screen from `display` in kiosk.conf: the framebuffer, the text display, or `auto`
/// (the framebuffer if it opens, else text); with `sound = auto`, each verdict also sounds its tone.
public enum DisplayFactory {
    public static func make(_ c: KioskConfiguration, logger: Logger) throws(KioskError) -> any StatusDisplay {
        let display = try screen(c, logger: logger)
        guard c.sound == .auto else { return display }
        return SoundingDisplay(
            display, sounder: ALSASounder(device: c.soundDevice, volume: c.soundVolume, logger: logger))
    }

    private static func screen(_ c: KioskConfiguration, logger: Logger) throws(KioskError) -> any StatusDisplay {
        let text = { TextStatusDisplay(colours: isatty(STDERR_FILENO) == 1) }
        switch c.display {
        case .text:
            return text()
        case .framebuffer, .auto:
            do {
                let fonts = FontConfiguration(
                    regularPath: c.fontRegular, boldPath: c.fontBold, package: "fonts-dejavu-core")
                let display = try FramebufferDisplay(devicePath: c.framebufferDevice, fonts: fonts)
                for problem in TextConsole.release() { logger.warning("framebuffer: \(problem)") }
                logger.info("display: framebuffer \(c.framebufferDevice)")
                return display
            } catch {
                if c.display == .auto {
                    logger.notice("display: no framebuffer (\(error)); using the text display")
                    return text()
                }
                throw .display("\(error)")
            }
        }
    }
}
