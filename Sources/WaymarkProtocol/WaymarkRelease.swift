/// The release every Waymark program reports (`--version`, `hello`, `status`).
public enum WaymarkRelease {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let version = "0.1.0"
}
