/// Satellites in view and used, per constellation.
public struct SatelliteCounts: Hashable, Sendable {
    /// Satellites in view, indexed by ``Constellation/rawValue``.
    public var inView: InlineArray<8, Int>
    /// Satellites used in the solution, indexed by ``Constellation/rawValue``.
    public var used: InlineArray<8, Int>

    /// No satellites.
    public init() {
        inView = InlineArray(repeating: 0)
        used = InlineArray(repeating: 0)
    }

    /// Total satellites in view.
    public var totalInView: Int { (0..<8).reduce(0) { $0 + inView[$1] } }
    /// Total satellites used.
    public var totalUsed: Int { (0..<8).reduce(0) { $0 + used[$1] } }

    /// Satellites in view of one constellation.
    public func inView(_ constellation: Constellation) -> Int { inView[constellation.rawValue] }
    /// Satellites used of one constellation.
    public func used(_ constellation: Constellation) -> Int { used[constellation.rawValue] }

    public static func == (lhs: SatelliteCounts, rhs: SatelliteCounts) -> Bool {
        (0..<8).allSatisfy { lhs.inView[$0] == rhs.inView[$0] && lhs.used[$0] == rhs.used[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        for index in 0..<8 {
            hasher.combine(inView[index])
            hasher.combine(used[index])
        }
    }
}
