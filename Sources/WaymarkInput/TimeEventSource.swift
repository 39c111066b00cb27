package import WaymarkTime

/// A location source that also reports what the time service needs: PPS edges and the
/// times of its epochs (``TimeEvent``), on the same event loop.
package protocol TimeEventSource: LocationSource {
    /// Where time events go; nothing is timed while it is `nil`. Set it before
    /// ``LocationSource/start(on:timeline:events:)``.
    var timeEvents: ((TimeEvent) -> Void)? { get set }
}
