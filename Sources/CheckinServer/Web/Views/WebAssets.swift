/// The one stylesheet and the one script of the organizer's pages (`Assets/`), served from the binary.
enum WebAssets {
    static let style = WebTemplates.text(PackageResources.style_css)
    /// Live updates: every element of class `live` is fetched again from its `data-source` every 5 s.
    static let liveScript = WebTemplates.text(PackageResources.live_js)
}
