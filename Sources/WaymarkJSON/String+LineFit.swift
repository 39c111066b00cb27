extension String {
    /// This text in at most `limit` UTF-8 bytes: whole when it fits, else cut on a character
    /// and ending in `…` (3 bytes, counted in `limit`), for a member that must fit a reply line.
    package func cut(toUTF8Bytes limit: Int) -> String {
        guard utf8.count > limit else { return self }
        let ellipsis = "…"
        var kept = ""
        var bytes = ellipsis.utf8.count
        for character in self {
            bytes += character.utf8.count
            guard bytes <= limit else { break }
            kept.append(character)
        }
        return kept + ellipsis
    }
}
