import WaymarkJSON
package import WaymarkLocation

/// A deferred subscription's batch (`DeliveryOptions.batching`), or one part of it: the
/// updates in the order they were taken. A batch too long for one line
/// (``ProtocolLimits/maximumLineLength``) goes out as consecutive parts; every part but the
/// last says `more`, and the first carries the batch's `overflow`.
package struct BatchEvent: Hashable, Sendable {
    /// The subscription, as the reply to `startLiveUpdates` named it.
    package var subscription: UInt64
    /// The updates, oldest first.
    package var updates: [LocationUpdate]
    /// How many older updates the batch dropped because it was full (first part only).
    package var overflow: Int
    /// Whether more parts of the same batch follow.
    package var more: Bool

    /// Creates an event.
    package init(subscription: UInt64, updates: [LocationUpdate], overflow: Int = 0, more: Bool = false) {
        self.subscription = subscription
        self.updates = updates
        self.overflow = overflow
        self.more = more
    }

    /// Decodes a `batch` event's members.
    init(_ fields: Fields) throws(ProtocolError) {
        let values = try fields.require("updates", "an array of updates") { $0.arrayValue }
        var updates: [LocationUpdate] = []
        updates.reserveCapacity(min(values.count, Batching.maximumCapacity))
        for (index, value) in values.enumerated() {
            updates.append(try LocationUpdate(Fields(value, at: "updates[\(index)]")))
        }
        let overflow = try fields.optionalInteger("overflow") ?? 0
        guard overflow >= 0 else { throw fields.invalid("overflow", "expected a count, found \(overflow)") }
        self.init(
            subscription: try fields.identifier("subscription"), updates: updates, overflow: overflow,
            more: try fields.optional("more", "a boolean") { $0.boolValue } ?? false)
    }

    /// The lines of a batch from updates ``UpdateEvent/encode(_:)`` made, each at most
    /// ``ProtocolLimits/maximumLineLength`` bytes with its newline: as many updates on each
    /// as fit, at least one.
    package static func lines(subscription: UInt64, encodedUpdates: [[UInt8]], overflow: Int) -> [[UInt8]] {
        // The members around the updates, with the longest numbers they can have.
        let frame = #"{"event":"batch","subscription":18446744073709551615,"updates":[],"overflow":9223372036854775807,"more":false}"#.utf8.count + 1
        var lines: [[UInt8]] = []
        var start = encodedUpdates.startIndex
        while start < encodedUpdates.endIndex || lines.isEmpty {
            var end = start
            var length = frame
            while end < encodedUpdates.endIndex, end == start || length + encodedUpdates[end].count + 1 <= ProtocolLimits.maximumLineLength {
                length += encodedUpdates[end].count + 1
                end += 1
            }
            var buffer = JSONBuffer(capacity: length)
            write(
                subscription: subscription, encodedUpdates: encodedUpdates[start..<end], overflow: lines.isEmpty ? overflow : 0,
                more: end < encodedUpdates.endIndex, to: &buffer)
            buffer.newline()
            lines.append(buffer.bytes)
            start = end
        }
        return lines
    }

    /// Writes a `batch` event's object.
    static func write(subscription: UInt64, encodedUpdates: ArraySlice<[UInt8]>, overflow: Int, more: Bool, to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("event", "batch")
        buffer.member("subscription", subscription)
        buffer.key("updates")
        buffer.beginArray()
        for update in encodedUpdates { buffer.raw(update) }
        buffer.endArray()
        buffer.member("overflow", overflow)
        buffer.member("more", more)
        buffer.endObject()
    }
}
