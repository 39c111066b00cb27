/// A line by offset on its chip, or by name (`GPIO17`: the same on Pi 4 and Pi 5).
package enum LineID: Hashable, Sendable, CustomStringConvertible {
    /// The offset on the chip.
    case offset(Int)
    /// The line name.
    case name(String)

    /// `17` or `"GPIO17"`.
    package var description: String {
        switch self {
        case .offset(let offset): String(offset)
        case .name(let name): "\"\(name)\""
        }
    }
}
