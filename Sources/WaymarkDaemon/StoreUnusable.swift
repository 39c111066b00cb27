import WaymarkStore

/// The store could not be opened or read at start (a file that is not a database, a newer
/// schema, a damaged authorization row): its path, what failed and what the operator can do.
/// The daemon does not start, as it would not enforce the authorization the file holds.
struct StoreUnusable: Error, CustomStringConvertible {
    /// The store's path.
    let path: String
    /// What failed.
    let error: StoreError

    var description: String {
        switch error.kind {
        case .inaccessibleFile, .unsafeFile:
            // Its place or its permissions, which the error names: its content is not in question.
            "the store \(path) cannot be used: \(error)"
        case .sqlite, .newerSchema, .unexpectedValue, .limitExceeded:
            """
            the store \(path) cannot be used: \(error). Move it aside to start with an empty store (its \
            authorizations, monitors and visits are lost), or repair it with sqlite3 (docs/store.md, "A damaged store")
            """
        }
    }

    /// `body`'s result, its store error as the store at `path` being unusable.
    static func reading<Result>(_ path: String, _ body: () throws(StoreError) -> Result) throws(StoreUnusable) -> Result {
        do throws(StoreError) {
            return try body()
        } catch {
            throw StoreUnusable(path: path, error: error)
        }
    }
}
