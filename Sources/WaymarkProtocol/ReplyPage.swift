import WaymarkJSON

/// A reply whose list could outgrow a line carries one page of it: as many entries as fit
/// ``maximumBytes`` (at least one), and `more` when entries follow, which the client asks
/// for again `after` the last it got (`authorizationApps`, `visits`).
enum ReplyPage {
    /// The bytes of entries one page carries at most: with the reply around them, far below
    /// the protocol's line limit (the largest entry, an app key of `PATH_MAX` bytes and a
    /// usage description, all escaped, is about 31 kB).
    static let maximumBytes = 48 << 10

    /// The first page of `entries`, each written by `write` to size it, and whether more follow.
    static func first<Entry>(
        of entries: some Collection<Entry>, writing write: (Entry, inout JSONBuffer) -> Void
    ) -> (entries: [Entry], more: Bool) {
        var page: [Entry] = []
        var bytes = 0
        var buffer = JSONBuffer()
        for entry in entries {
            buffer.removeAll()
            write(entry, &buffer)
            bytes += buffer.bytes.count + 1
            if bytes > maximumBytes && !page.isEmpty { break }
            page.append(entry)
        }
        return (page, page.count < entries.count)
    }

    /// Writes a page: the array member `key` of `entries`, each written by `write`, then
    /// `more` when true.
    static func write<Entry>(
        _ key: String, _ entries: [Entry], more: Bool, to buffer: inout JSONBuffer, writing write: (Entry, inout JSONBuffer) -> Void
    ) {
        buffer.key(key)
        buffer.beginArray()
        for entry in entries { write(entry, &buffer) }
        buffer.endArray()
        if more { buffer.member("more", true) }
    }

    /// Whether a page says that entries follow.
    static func more(in fields: Fields) throws(ProtocolError) -> Bool {
        try fields.optional("more", "a boolean") { $0.boolValue } ?? false
    }
}
