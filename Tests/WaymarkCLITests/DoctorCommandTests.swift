import Testing

@Suite("waymark doctor")
struct DoctorCommandTests {
    @Test("a config.txt named and unreadable is a failure (it was skipped without a word)")
    func anUnreadableConfigTxt() throws {
        let doctor = try runWaymark(["doctor", "--board", "rpi-neo-m8n-adxl345", "--config-txt", "/nonexistent/config.txt", "--seconds", "1"])
        #expect(doctor.status == 1)
        #expect(doctor.output.contains("FAIL  config.txt: cannot read /nonexistent/config.txt\n"), "\(doctor.output)")
    }
}
