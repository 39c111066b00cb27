import WaymarkLocation

/// Which of a status's recent transitions a power log has not written yet. They are counted by
/// the daemon's total (``StatusReport/transitions``), not told apart by time: transitions at
/// the same instant (acquiring → tracking → backup within one fix) are each written once.
struct TransitionCursor {
    /// How many of the daemon's transitions have been written.
    private(set) var written = 0

    /// The transitions of `status` not written yet, oldest first; they count as written from
    /// now on. A total below what was written is a daemon started again, whose count did too.
    mutating func unwritten(in status: StatusReport) -> ArraySlice<StatusReport.PowerTransition> {
        let recent = status.recentTransitions
        if status.transitions < written { written = 0 }
        let firstIndex = status.transitions - recent.count
        let alreadyWritten = min(max(0, written - firstIndex), recent.count)
        written = max(written, status.transitions)
        return recent.dropFirst(alreadyWritten)
    }
}
