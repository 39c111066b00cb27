package import WaymarkJSON
package import WaymarkFix
package import WaymarkLocation

/// One gpsd client's side of the conversation, pure: its commands in, gpsd's replies and
/// reports out (each object on its own line ending in CRLF, as gpsd frames them). The
/// daemon owns the socket; this decides what is said.
package struct GpsdSession: Sendable {
    /// gpsd's protocol version this endpoint speaks (gpsd 3.22's, read by every client since).
    package static let protocolMajor = 3
    package static let protocolMinor = 14

    /// What the client asked to be sent.
    package private(set) var watch = GpsdWatch()
    /// The receiver as DEVICE reports describe it.
    package var device: GpsdDevice
    /// The daemon's release, for VERSION.
    package let release: String
    private var reader = GpsdCommandReader()

    /// A session for a client that just connected.
    package init(device: GpsdDevice, release: String) {
        self.device = device
        self.release = release
    }

    /// Whether the client wants fixes as they come, as reports or as the receiver's
    /// sentences (it holds a live subscription while so). A client watching for time
    /// (``GpsdWatch/wantsTime(from:)``) always wants one of them: watching without choosing
    /// an output asks for JSON.
    package var wantsLocations: Bool { watch.wantsReports || watch.wantsSentences }

    /// The bytes held: read and not yet answered, and the command in progress.
    package var heldBytes: Int { reader.heldBytes }

    /// Appends what gpsd sends a client on connecting: its VERSION.
    package func writeGreeting(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "VERSION")
        buffer.member("release", text: release)
        buffer.member("rev", text: release)
        buffer.member("proto_major", Self.protocolMajor)
        buffer.member("proto_minor", Self.protocolMinor)
        buffer.endObject()
        buffer.carriageReturnNewline()
    }

    /// Adds bytes read from the client; ``answerNextCommand(latest:now:into:)`` answers them.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        reader.append(bytes)
    }

    /// Appends the reply to the next complete command, if the bytes so far end one, and
    /// returns whether they did. `latest` is the last location the client may see, `sky` the
    /// satellites when it may see them (``GpsdFixReports/sky``), and `now` the time, all
    /// taken only for a `?POLL`.
    package mutating func answerNextCommand(
        latest: @autoclosure () -> Location?, sky: @autoclosure () -> SkyView? = nil, now: @autoclosure () -> Timestamp,
        into buffer: inout JSONBuffer
    ) -> Bool {
        guard let command = reader.nextCommand() else { return false }
        reply(to: command, latest: latest, sky: sky, now: now, into: &buffer)
        return true
    }

    /// Appends the reports of a new fix, when the client watches: TPV, SKY (with `sky`'s
    /// satellites when the client may see them), and GST.
    package func writeReports(for location: Location, sky: SkyView? = nil, into buffer: inout JSONBuffer) {
        guard watch.wantsReports else { return }
        let reports = GpsdFixReports(location: location, device: device.path, sky: sky)
        reports.writeTPV(to: &buffer)
        buffer.carriageReturnNewline()
        reports.writeSKY(to: &buffer)
        buffer.carriageReturnNewline()
        if reports.hasGST {
            reports.writeGST(to: &buffer)
            buffer.carriageReturnNewline()
        }
    }

    /// Appends a TPV with mode 1 and no position, when the client watches: the receiver has
    /// no fix (cgps shows NO FIX). gpsd sends one each receiver cycle without a fix; the
    /// endpoint sends one when the fix is lost, at the update that says so
    /// (``LocationUpdate/diagnostics``' `locationUnavailable`), and a fix's TPV when it is back.
    package func writeNoFix(into buffer: inout JSONBuffer) {
        guard watch.wantsReports else { return }
        var report = TPVReport()
        report.device = device.path
        report.write(to: &buffer)
        buffer.carriageReturnNewline()
    }

    private mutating func reply(
        to command: GpsdCommand, latest: () -> Location?, sky: () -> SkyView?, now: () -> Timestamp,
        into buffer: inout JSONBuffer
    ) {
        switch command {
        case .version:
            writeGreeting(to: &buffer)
            return
        case .devices:
            device.writeList(to: &buffer)
        case .device:
            device.write(to: &buffer)
        case .watch(let change):
            watch.apply(change)
            if watch.enable {
                device.writeList(to: &buffer)
                buffer.carriageReturnNewline()
            }
            watch.write(to: &buffer)
        case .poll:
            writePoll(latest: latest(), sky: sky(), now: now(), into: &buffer)
        case .invalid(let message):
            buffer.beginObject()
            buffer.member("class", "ERROR")
            buffer.member("message", text: message)
            buffer.endObject()
        }
        buffer.carriageReturnNewline()
    }

    /// POLL: the time, the active devices, and the last fix's TPV and SKY (empty arrays
    /// before the first fix).
    private func writePoll(latest: Location?, sky: SkyView?, now: Timestamp, into buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "POLL")
        buffer.timeMember("time", now)
        buffer.member("active", 1)
        let reports = latest.map { GpsdFixReports(location: $0, device: device.path, sky: sky) }
        buffer.key("tpv")
        buffer.beginArray()
        reports?.writeTPV(to: &buffer)
        buffer.endArray()
        buffer.key("sky")
        buffer.beginArray()
        reports?.writeSKY(to: &buffer)
        buffer.endArray()
        buffer.endObject()
    }
}
