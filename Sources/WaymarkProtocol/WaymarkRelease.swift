/// The release every Waymark program reports (`--version`, `hello`, `status`).
package enum WaymarkRelease {
    /// The version, `MAJOR.MINOR.PATCH`.
    package static let version = "0.1.0"
}
