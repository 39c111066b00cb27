/// The receiver's UTC clock at 1 Hz, rolling the date over midnight, month and year ends.
struct UTCClock {
    private(set) var year: Int
    private(set) var month: Int
    private(set) var day: Int
    private(set) var secondOfDay: Int

    init(year: Int, month: Int, day: Int, secondOfDay: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.secondOfDay = secondOfDay
    }

    mutating func tick() {
        secondOfDay += 1
        guard secondOfDay == 86_400 else { return }
        secondOfDay = 0
        day += 1
        guard day > daysInMonth else { return }
        day = 1
        month += 1
        guard month > 12 else { return }
        month = 1
        year += 1
    }

    private var daysInMonth: Int {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }
}
