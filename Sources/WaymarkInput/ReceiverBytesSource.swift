/// A location source that reads a receiver's byte stream and can hand the bytes on as read
/// (to gpsd's clients watching with `nmea` or `raw`, docs/gpsd.md), on the same event loop.
package protocol ReceiverBytesSource: LocationSource {
    /// Where each read's bytes go once the port's rate is known, before they are decoded;
    /// nothing is handed on while it is `nil`. Set it before
    /// ``LocationSource/start(on:timeline:events:)``.
    var receiverBytes: ((UnsafeRawBufferPointer) -> Void)? { get set }
}
