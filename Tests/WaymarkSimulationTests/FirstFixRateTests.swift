import Testing
import WaymarkReceiver

@Suite("First-fix rate")
struct FirstFixRateTests {
    @Test("fast once the receiver talks after a power-up, back to one a second at the first fix")
    func cycle() {
        var plan = FirstFixRate(fast: .milliseconds(200))
        #expect(plan.receiverTalked() == nil && plan.fixArrived() == nil)
        plan.poweredUp()
        #expect(plan.receiverTalked() == .milliseconds(200))
        #expect(plan.receiverTalked() == nil)
        #expect(plan.fixArrived() == .seconds(1))
        #expect(plan.fixArrived() == nil && plan.receiverTalked() == nil)
    }

    @Test("a fix before the receiver was told anything needs no command; nothing goes to a receiver powered down")
    func edges() {
        var plan = FirstFixRate(fast: .milliseconds(200))
        plan.poweredUp()
        #expect(plan.fixArrived() == nil)
        #expect(plan.receiverTalked() == nil)
        plan.poweredUp()
        plan.poweredDown()
        #expect(plan.receiverTalked() == nil && plan.fixArrived() == nil)
        plan.poweredUp()
        #expect(plan.receiverTalked() == .milliseconds(200))
        plan.poweredDown()
        #expect(plan.fixArrived() == nil && plan.receiverTalked() == nil)
    }
}
