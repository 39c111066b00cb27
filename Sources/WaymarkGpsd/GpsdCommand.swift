/// A request of gpsd's JSON protocol, as a gpsd client sends it (`?NAME;` or
/// `?NAME={...};`), in the subset Waymark's endpoint serves (docs/gpsd.md).
package enum GpsdCommand: Hashable, Sendable {
    /// `?VERSION;`: the daemon's release and protocol version.
    case version
    /// `?DEVICES;`: the devices the daemon reads.
    case devices
    /// `?DEVICE;` (gpsd also takes an argument to configure a device; Waymark lets no
    /// client reconfigure the receiver and answers with the device as it is).
    case device
    /// `?WATCH;` or `?WATCH={...};`: report, or change, what the client is sent.
    case watch(GpsdWatchChange)
    /// `?POLL;`: the latest fix, without watching.
    case poll
    /// A request that cannot be served; the reply is an ERROR carrying `message`.
    case invalid(message: String)
}

extension GpsdCommand {
    /// The longest argument gpsd clients send is a `?WATCH` object of about 150 bytes; a
    /// command longer than this is refused (``GpsdCommandReader``).
    package static let maximumLength = 512

    /// Parses one command without its terminator (`;` or newline), surrounding blanks
    /// already trimmed.
    package init(_ text: ArraySlice<UInt8>) {
        guard text.first == UInt8(ascii: "?") else {
            self = .invalid(message: "Unrecognized request '\(Self.printable(text))'")
            return
        }
        let body = text.dropFirst()
        let equals = body.firstIndex(of: UInt8(ascii: "="))
        let name = body[..<(equals ?? body.endIndex)]
        let argument = equals.map { body[($0 + 1)...] }
        switch (Array(name), argument) {
        case (Array("VERSION".utf8), nil): self = .version
        case (Array("DEVICES".utf8), nil): self = .devices
        case (Array("DEVICE".utf8), _): self = .device
        case (Array("POLL".utf8), nil): self = .poll
        case (Array("WATCH".utf8), nil): self = .watch(GpsdWatchChange())
        case (Array("WATCH".utf8), let argument?):
            do throws(GpsdWatchChange.Invalid) {
                self = .watch(try GpsdWatchChange(json: argument))
            } catch {
                self = .invalid(message: "Invalid WATCH: \(error.reason)")
            }
        default: self = .invalid(message: "Unrecognized request '\(Self.printable(name))'")
        }
    }

    /// Client bytes shown in an error reply: printable ASCII kept, anything else as `?`.
    static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
