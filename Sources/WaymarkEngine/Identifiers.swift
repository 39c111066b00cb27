/// A number that names one thing for the daemon's run. Each kind of thing has its own type,
/// so that a subscription's number cannot be taken for a request's or a client's.
package protocol RunUniqueID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number as it goes on the wire and in logs.
    var rawValue: UInt64 { get }
    init(rawValue: UInt64)
}

extension RunUniqueID {
    package init(integerLiteral value: UInt64) { self.init(rawValue: value) }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    package var description: String { String(rawValue) }
    /// The id handed out after this one (ids count up from 1 and never wrap in a run: one per
    /// request at a billion a second would take centuries).
    package var next: Self { Self(rawValue: rawValue + 1) }
}

/// A live-updates subscription.
package struct SubscriptionID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// A one-shot location request.
package struct RequestID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}
