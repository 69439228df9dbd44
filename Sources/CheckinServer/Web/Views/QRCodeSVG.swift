import QREncoding

/// A QR code as SVG, drawn on the server from libqrencode's modules (`QREncoding`): one path of dark squares.
enum QRCodeSVG {
    static func svg(_ text: String, label: String) throws -> String {
        let code = try QRCodeRenderer.render(text, moduleSize: 1, quietZone: 4, correction: .medium)
        let image = code.image
        var path = ""
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] < 128 { path += "M\(x) \(y)h1v1h-1z" }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(image.width) \(image.height)" role="img" \
            aria-label="\(HTMLText.escape(label))" class="qr" shape-rendering="crispEdges">\
            <rect width="100%" height="100%" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
