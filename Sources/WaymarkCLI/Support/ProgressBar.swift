import Glibc

/// A progress bar on standard error, redrawn in place (only when standard error is a terminal).
struct ProgressBar {
    let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var shownPercent = -1

    init(label: String) {
        self.label = label
    }

    mutating func update(_ fraction: Double) {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard isTerminal, percent != shownPercent else { return }
        shownPercent = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        StandardError.write("\r\(label) [\(bar)] \(percent)%")
    }

    func finish() {
        if isTerminal { StandardError.write("\n") }
    }
}
