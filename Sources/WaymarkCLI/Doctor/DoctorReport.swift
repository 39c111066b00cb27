/// The findings of `waymark doctor`: one line per check, each failure with the fix to apply.
struct DoctorReport {
    /// One check's result.
    enum Outcome {
        case ok(String)
        case warning(String, fix: String)
        case failure(String, fix: String)
    }

    private(set) var failures = 0

    mutating func record(_ subject: String, _ outcome: Outcome) {
        switch outcome {
        case .ok(let detail):
            print("ok    \(subject): \(detail)")
        case .warning(let detail, let fix):
            print("warn  \(subject): \(detail)\n      fix: \(fix)")
        case .failure(let detail, let fix):
            failures += 1
            print("FAIL  \(subject): \(detail)\n      fix: \(fix)")
        }
    }
}
