import WaymarkAuthorization
import WaymarkLocation
import WaymarkMonitoring

/// How monitor values map to columns of schema version 3, read back as strictly as written.
extension MonitorStore {
    static func key(_ app: AppIdentity) -> [SQLValue] {
        [.text(app.kind.rawValue), .text(app.key)]
    }

    /// The columns of `record` after its identifier: kind, latitude, longitude, radius, assumed
    /// state, state, state date, diagnostics.
    static func values(_ record: ConditionRecord) -> [SQLValue] {
        let kind: [SQLValue]
        switch record.condition {
        case .circularGeographic(let region):
            kind = [.text("circularGeographic"), .real(region.latitude), .real(region.longitude), .real(region.radius)]
        case .beaconIdentity:
            kind = [.text("beaconIdentity"), .null, .null, .null]
        }
        return kind + [
            .optionalText(record.assumedState?.rawValue), .text(record.lastEvent.state.rawValue),
            .integer(record.lastEvent.date.nanosecondsSinceEpoch), .text(text(record.lastEvent.diagnostics)),
        ]
    }

    /// A record from `identifier, kind, latitude, longitude, radius, assumedState, state, stateDate, diagnostics`.
    static func record(_ row: Row) throws(StoreError) -> ConditionRecord {
        let identifier = try row.string(0)
        let condition: MonitoredCondition
        switch try row.string(1) {
        case "circularGeographic":
            guard let region = CircularRegion(latitude: try row.double(2), longitude: try row.double(3), radius: try row.double(4)) else {
                throw StoreError(.unexpectedValue, operation: "read condition \(identifier)", message: "not a valid circle")
            }
            condition = .circularGeographic(region)
        case "beaconIdentity":
            condition = .beaconIdentity
        case let other:
            throw StoreError(.unexpectedValue, operation: "read condition \(identifier)", message: "unknown kind \"\(other)\"")
        }
        let assumed: ConditionState? = row.isNull(5) ? nil : try row.enumeration(5)
        let event = MonitorEvent(
            identifier: identifier, state: try row.enumeration(6), date: Timestamp(nanosecondsSinceEpoch: try row.int64(7)),
            diagnostics: try diagnostics(row, 8))
        return ConditionRecord(identifier: identifier, condition: condition, assumedState: assumed, lastEvent: event)
    }

    /// Diagnostics as stored: their names joined by commas.
    static func text(_ diagnostics: [MonitorDiagnostic]) -> String {
        diagnostics.map(\.rawValue).joined(separator: ",")
    }

    /// The diagnostics named in `column`; an unknown name is an error.
    static func diagnostics(_ row: Row, _ column: Int32) throws(StoreError) -> [MonitorDiagnostic] {
        let text = try row.string(column)
        guard !text.isEmpty else { return [] }
        var diagnostics: [MonitorDiagnostic] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let diagnostic = MonitorDiagnostic(rawValue: String(name)) else {
                throw StoreError(.unexpectedValue, operation: "read diagnostics", message: "unknown diagnostic \"\(name)\"")
            }
            diagnostics.append(diagnostic)
        }
        return diagnostics
    }

    /// The columns of `visit`: arrival date, departure date (null while there), latitude,
    /// longitude, horizontal accuracy.
    static func values(_ visit: Visit) -> [SQLValue] {
        [
            .integer(visit.arrivalDate.nanosecondsSinceEpoch), visit.departureDate.map { .integer($0.nanosecondsSinceEpoch) } ?? .null,
            .real(visit.latitude), .real(visit.longitude), .real(visit.horizontalAccuracy),
        ]
    }

    /// A visit from the columns of ``values(_:)-(Visit)`` starting at `column`.
    static func visit(_ row: Row, from column: Int32) throws(StoreError) -> Visit {
        let visit = Visit(
            latitude: try row.double(column + 2), longitude: try row.double(column + 3), horizontalAccuracy: try row.double(column + 4),
            arrivalDate: Timestamp(nanosecondsSinceEpoch: try row.int64(column)),
            departureDate: row.isNull(column + 1) ? nil : Timestamp(nanosecondsSinceEpoch: try row.int64(column + 1)))
        // What the visit detector writes: a centre on the globe, an accuracy, a departure not before the arrival.
        guard abs(visit.latitude) <= 90, abs(visit.longitude) <= 180, visit.horizontalAccuracy.isFinite, visit.horizontalAccuracy >= 0,
            (visit.departureDate ?? visit.arrivalDate) >= visit.arrivalDate
        else {
            throw StoreError(.unexpectedValue, operation: "read the visit arriving \(visit.arrivalDate)", message: "not a valid visit")
        }
        return visit
    }
}
