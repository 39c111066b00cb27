import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkHardware

/// Exact bytes of every vendor command, against values published by the vendors and their
/// libraries (Adafruit_GPS, u-blox application notes).
@Suite struct ReceiverCommandsTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func pmtkCommands() {
        #expect(text(ReceiverCommands.pmtkStandby) == "$PMTK161,0*28\r\n")
        #expect(text(ReceiverCommands.pmtkWake) == "$PMTK000*32\r\n")
        #expect(text(ReceiverCommands.pmtkBackup) == "$PMTK225,4*2F\r\n")  // Quectel L76/L96 hardware design
        #expect(text(ReceiverCommands.pmtkSetBaudRate(115200)) == "$PMTK251,115200*1F\r\n")
        #expect(text(ReceiverCommands.pmtkSetBaudRate(57600)) == "$PMTK251,57600*2C\r\n")
        #expect(text(ReceiverCommands.pmtkSetBaudRate(9600)) == "$PMTK251,9600*17\r\n")
    }

    @Test func orbitPredictionCommands() {
        #expect(text(ReceiverCommands.pmtkEnableEASY) == "$PMTK869,1,1*35\r\n")
        // UBX-CFG-NAVX5 version 0: mask1 = 0x4000 (aop), aopCfg (offset 27) = useAOP, the rest 0.
        var payload = [UInt8](repeating: 0, count: 40)
        payload[3] = 0x40
        payload[27] = 0x01
        #expect(ReceiverCommands.ubxEnableAssistNowAutonomous == [0xB5, 0x62, 0x06, 0x23, 0x28, 0x00] + payload + [0x92, 0xC6])
        #expect(ReceiverCommands.enableOrbitPrediction(family: .mediatek) == ReceiverCommands.pmtkEnableEASY)
        #expect(ReceiverCommands.enableOrbitPrediction(family: .ublox) == ReceiverCommands.ubxEnableAssistNowAutonomous)
        #expect(ReceiverCommands.enableOrbitPrediction(family: .generic) == nil)
    }

    @Test func pubxSetBaudRate() {
        #expect(text(ReceiverCommands.pubxSetBaudRate(115200)) == "$PUBX,41,1,0007,0003,115200,0*18\r\n")
    }

    @Test func ubxConfigurePort() {
        #expect(
            ReceiverCommands.ubxSetBaudRate(115200) == [
                0xB5, 0x62, 0x06, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0xD0, 0x08, 0x00, 0x00,
                0x00, 0xC2, 0x01, 0x00, 0x07, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x7E,
            ])
    }

    @Test func ubxBackupRequest() {
        #expect(
            ReceiverCommands.ubxBackup(wakeOn: .uartRX) == [
                0xB5, 0x62, 0x02, 0x41, 0x10, 0x00,
                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
                0x61, 0x6B,
            ])
        #expect(ReceiverCommands.ubxBackup(wakeOn: [.uartRX, .extint0])[18] == 0x28)
    }

    @Test func theEightByteBackupRequestMatchesTheKnownFrame() {
        // The frame u-blox forums quote for "backup until woken" (8-byte PMREQ).
        #expect(
            ReceiverCommands.ubxFrame(class: 0x02, id: 0x41, payload: [0, 0, 0, 0, 2, 0, 0, 0])
                == [0xB5, 0x62, 0x02, 0x41, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x4D, 0x3B])
    }

    @Test func measurementInterval() {
        // PMTK220 as in Adafruit_GPS (PMTK_SET_NMEA_UPDATE_5HZ / _1HZ); the 1 Hz UBX-CFG-RATE
        // frame as u-blox's application notes print it.
        #expect(text(ReceiverCommands.pmtkSetFixInterval(milliseconds: 200)) == "$PMTK220,200*2C\r\n")
        #expect(text(ReceiverCommands.pmtkSetFixInterval(milliseconds: 1000)) == "$PMTK220,1000*1F\r\n")
        #expect(ReceiverCommands.ubxSetMeasurementRate(milliseconds: 1000) == [0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xE8, 0x03, 0x01, 0x00, 0x01, 0x00, 0x01, 0x39])
        #expect(ReceiverCommands.ubxSetMeasurementRate(milliseconds: 200) == [0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xC8, 0x00, 0x01, 0x00, 0x01, 0x00, 0xDE, 0x6A])
        #expect(ReceiverCommands.setMeasurementInterval(.milliseconds(200), family: .mediatek) == ReceiverCommands.pmtkSetFixInterval(milliseconds: 200))
        #expect(ReceiverCommands.setMeasurementInterval(.seconds(1), family: .ublox) == ReceiverCommands.ubxSetMeasurementRate(milliseconds: 1000))
        #expect(ReceiverCommands.setMeasurementInterval(.seconds(1), family: .generic) == nil)
    }

    @Test func baudSwitchByFamily() {
        #expect(ReceiverCommands.setBaudRate(115200, family: .mediatek) == ReceiverCommands.pmtkSetBaudRate(115200))
        #expect(ReceiverCommands.setBaudRate(115200, family: .ublox) == ReceiverCommands.ubxSetBaudRate(115200))
        #expect(ReceiverCommands.setBaudRate(115200, family: .generic) == nil)
    }
}
