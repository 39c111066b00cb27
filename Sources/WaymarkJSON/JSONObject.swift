/// A JSON object: members in the order they were added, looked up by name.
///
/// Names are unique: the parser rejects duplicates, and setting a name again replaces its
/// value in place. The members live in one array, searched in order: the protocol's objects
/// have a few members, and building them costs no hashing. Objects with more than
/// ``indexThreshold`` members (a client's oversized message) also keep an index by name, so
/// lookups stay constant-time whatever a peer sends.
package struct JSONObject: Hashable, Sendable {
    /// One member.
    struct Member: Hashable, Sendable {
        var key: String
        var value: JSONValue
    }

    /// Above this many members, an index by name is kept.
    static let indexThreshold = 16

    /// The members in order.
    private(set) var storage: [Member] = []
    /// Position by name; only for objects with more than ``indexThreshold`` members.
    private var index: [String: Int]?

    /// An empty object.
    package init() {}

    /// The number of members.
    package var count: Int { storage.count }

    /// The member names in order.
    package var keys: [String] { storage.map(\.key) }

    /// The members in order.
    package var members: [(key: String, value: JSONValue)] {
        storage.map { ($0.key, $0.value) }
    }

    /// The value of the member `key`; setting `nil` removes the member.
    package subscript(key: String) -> JSONValue? {
        get { position(of: key).map { storage[$0].value } }
        set {
            switch (position(of: key), newValue) {
            case (let position?, let newValue?):
                storage[position].value = newValue
            case (nil, let newValue?):
                storage.append(Member(key: key, value: newValue))
                if index != nil {
                    index?[key] = storage.count - 1
                } else if storage.count > Self.indexThreshold {
                    rebuildIndex()
                }
            case (let position?, nil):
                storage.remove(at: position)
                if index != nil { rebuildIndex() }
            case (nil, nil):
                break
            }
        }
    }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.storage == rhs.storage
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return storage.firstIndex { $0.key == key }
    }

    private mutating func rebuildIndex() {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(storage.count)
        for (position, member) in storage.enumerated() { positions[member.key] = position }
        index = positions
    }
}
