package import WaymarkLocation
package import WaymarkNMEA

extension Timestamp {
    /// Creates an instant from a civil UTC date and a receiver's time of day; `nil` as
    /// ``init(date:hour:minute:second:nanoseconds:)`` says.
    package init?(date: CivilDate, time: TimeOfDay) {
        self.init(
            date: date, hour: time.hour, minute: time.minute, second: time.second, nanoseconds: Int64(time.nanoseconds))
    }
}
