package import WaymarkEngine
package import WaymarkLocation
package import WaymarkProtocol

/// The `requestLocation`s an app left pending when its connection ended (`docs/semantics.md`,
/// "Consumers that come and go"): each with the parameters it was asked with, which re-taking
/// matches, and the answer the engine gave while the app was away. At most ``capacity``, the
/// newest; the engine keeps running those not yet answered, their timeouts counting.
package struct KeptRequests: Sendable {
    /// One kept request and its answer, once given.
    package struct Entry: Sendable, Equatable {
        package let request: RequestID
        package let parameters: LocationRequest
        package var answer: Result<Location, LocationError>?

        /// A kept request and its answer, if it has one.
        package init(request: RequestID, parameters: LocationRequest, answer: Result<Location, LocationError>? = nil) {
            self.request = request
            self.parameters = parameters
            self.answer = answer
        }
    }

    /// How many requests are kept at most.
    package let capacity: Int
    /// The kept requests, oldest first.
    package private(set) var entries: [Entry] = []

    /// An empty set keeping at most `capacity` requests (none if it is 0 or less).
    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The kept requests the engine still runs (not answered yet).
    package var pending: [RequestID] { entries.filter { $0.answer == nil }.map(\.request) }

    /// Keeps `request`, asked with `parameters`, dropping the oldest kept one if the set is
    /// full; returns the dropped requests the engine still runs, for it to release.
    package mutating func append(_ request: RequestID, _ parameters: LocationRequest) -> [RequestID] {
        entries.append(Entry(request: request, parameters: parameters))
        let dropped = entries.prefix(entries.count - min(entries.count, capacity))
        entries.removeFirst(dropped.count)
        return dropped.filter { $0.answer == nil }.map(\.request)
    }

    /// Keeps the engine's answer to `request`; returns whether it was kept here.
    package mutating func answer(_ request: RequestID, with result: Result<Location, LocationError>) -> Bool {
        guard let index = entries.firstIndex(where: { $0.request == request && $0.answer == nil }) else { return false }
        entries[index].answer = result
        return true
    }

    /// Takes the oldest kept request asked with `parameters` out of the set, with its answer if
    /// it has one: re-taken, it is the re-taker's and is answered once, to it.
    package mutating func retake(_ parameters: LocationRequest) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.parameters == parameters }) else { return nil }
        return entries.remove(at: index)
    }
}
