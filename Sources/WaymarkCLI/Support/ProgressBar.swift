import WaymarkSystem

/// A progress bar on standard error, redrawn in place within the terminal's width (only when
/// standard error is a terminal).
struct ProgressBar {
    let label: String
    private let columns = FileDescriptor.standardError.isTerminal ? FileDescriptor.standardError.terminalColumns ?? 80 : nil
    private var shownPercent = -1

    init(label: String) {
        self.label = label
    }

    mutating func update(_ fraction: Double) {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard let columns, percent != shownPercent else { return }
        shownPercent = percent
        StandardError.write("\r" + Self.line(label: label, percent: percent, columns: columns))
    }

    func finish() {
        if columns != nil { StandardError.write("\n") }
    }

    /// The bar's line for `percent` in `columns` columns: `label [████····] 42%`, the bar at
    /// most 30 wide and the label shortened with `…` when the terminal is narrow.
    static func line(label: String, percent: Int, columns: Int) -> String {
        let suffix = " \(percent)%"
        let available = max(columns - 1, 0)  // the last column would wrap on some terminals
        let barWidth = min(30, max(0, available - suffix.count - 3 - 8))
        let filled = percent * barWidth / 100
        let bar = " [" + String(repeating: "█", count: filled) + String(repeating: "·", count: barWidth - filled) + "]"
        let room = available - bar.count - suffix.count
        let shown = label.count <= room ? label : room > 1 ? String(label.prefix(room - 1)) + "…" : ""
        return String((shown + bar + suffix).prefix(available))
    }
}
