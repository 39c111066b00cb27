import Testing
import WaymarkBridgeCore
import WaymarkJSON
import WaymarkLocation

/// A location in Zürich at 2026-11-23T08:00:05.75Z (or `secondsLater`), walking east.
func sampleLocation(secondsLater: Int = 0) -> Location {
    var location = Location(
        latitude: 47.376_912_345, longitude: 8.541_7, horizontalAccuracy: 4.2,
        timestamp: Timestamp(nanosecondsSinceEpoch: 1_795_420_805_750_000_000 + Int64(secondsLater) * 1_000_000_000),
        sourceInformation: SourceInformation(isSimulatedBySoftware: true), mode: .threeDimensional)
    location.altitude = 408.4
    location.verticalAccuracy = 6.01
    location.speed = 1.4
    location.course = 89.6
    return location
}

let device = OwnTracksDevice(user: "jane", device: "pi", trackerID: "pi")

@Suite struct OwnTracksPayloadTests {
    @Test func aLocationHasTheBookletsFieldsAndUnits() throws {
        let payload = try #require(OwnTracksPayload.location(sampleLocation(), device: device, trigger: nil, now: 1_795_420_806))
        #expect(
            payload
                == #"{"_type":"location","lat":47.3769123,"lon":8.5417000,"acc":5,"alt":408,"vac":7,"vel":5,"cog":90,"tst":1795420805,"created_at":1795420806,"tid":"pi"}"#)
    }

    @Test func theTopicsAreOwnTracks() {
        #expect(device.topic == "owntracks/jane/pi")
        #expect(device.statusTopic == "owntracks/jane/pi/status")
    }

    @Test func invalidValuesAreLeftOutAsCoreLocationMarksThem() throws {
        var location = sampleLocation()
        (location.horizontalAccuracy, location.verticalAccuracy, location.speed, location.course) = (-1, -1, -1, -1)
        let payload = try #require(OwnTracksPayload.location(location, device: device, trigger: .becameStationary, now: 0))
        let object = try #require(try JSONParser().parse(Array(payload.utf8)).objectValue)
        #expect(object.keys == ["_type", "lat", "lon", "tst", "created_at", "tid", "t"])
        #expect(object["t"] == .string("k"))
    }

    @Test func aTinyAccuracyIsStillOneMetreForHomeAssistant() throws {
        var location = sampleLocation()
        location.horizontalAccuracy = 0
        let payload = try #require(OwnTracksPayload.location(location, device: device, trigger: nil, now: 0))
        #expect(payload.contains(#""acc":1,"#))
    }

    @Test func aCourseJustBelowNorthIsZero() throws {
        var location = sampleLocation()
        location.course = 359.7
        #expect(try #require(OwnTracksPayload.location(location, device: device, trigger: nil, now: 0)).contains(#""cog":0,"#))
    }

    @Test(arguments: [
        (Double.nan, 8.0), (91, 8), (-90.5, 8), (47, .infinity), (47, 180.01),
    ])
    func aPlaceNotOnEarthSendsNothing(latitude: Double, longitude: Double) {
        var location = sampleLocation()
        (location.latitude, location.longitude) = (latitude, longitude)
        #expect(OwnTracksPayload.location(location, device: device, trigger: nil, now: 0) == nil)
    }

    @Test func hugeValuesAreLeftOutWithoutTrapping() throws {
        var location = sampleLocation()
        (location.altitude, location.speed, location.course, location.horizontalAccuracy) = (1e300, .infinity, 1e19, .greatestFiniteMagnitude)
        let payload = try #require(OwnTracksPayload.location(location, device: device, trigger: nil, now: 0))
        #expect(!payload.contains("alt") && !payload.contains("vel") && !payload.contains("cog") && !payload.contains("acc"))
    }

    @Test func aTimeBefore1970SendsNothing() {
        var location = sampleLocation()
        location.timestamp = Timestamp(nanosecondsSinceEpoch: -1)
        #expect(OwnTracksPayload.location(location, device: device, trigger: nil, now: 0) == nil)
    }

    @Test func theLastWillAndStatusAreOwnTracksJSON() {
        #expect(OwnTracksPayload.lastWill(connectedAt: 1_795_420_800) == #"{"_type":"lwt","tst":1795420800}"#)
        let status = BridgeStatus(isOnline: true, queued: 3, dropped: 12, diagnostics: ["daemonUnavailable"])
        #expect(
            OwnTracksPayload.status(status, now: 7)
                == #"{"_type":"status","waymark":{"online":true,"queued":3,"dropped":12,"diagnostics":["daemonUnavailable"]},"tst":7}"#)
    }
}

@Suite struct UpdateTranslatorTests {
    @Test func stationaryTransitionsCarryTheirTriggersAndLocationsAreRetained() throws {
        var translator = UpdateTranslator(device: device)
        let triggers = [false, true, false, false, true].enumerated().map { second, stationary in
            translator.message(for: LocationUpdate(location: sampleLocation(secondsLater: second), isStationary: stationary), now: 0)
        }
        #expect(triggers.map { $0?.payload.contains(#""t":"k""#) } == [false, true, false, false, true])
        #expect(triggers.map { $0?.payload.contains(#""t":"v""#) } == [false, false, true, false, false])
        #expect(triggers.allSatisfy { $0?.retain == true && $0?.topic == "owntracks/jane/pi" })
    }

    @Test func theSameLocationAgainSendsNothingUnlessItBringsATrigger() {
        var translator = UpdateTranslator(device: device)
        let cell = sampleLocation()
        let sent = [false, false, false, true, true, false].map { stationary in
            translator.message(for: LocationUpdate(location: cell, isStationary: stationary), now: 0) != nil
        }
        #expect(sent == [true, false, false, true, false, true])
        #expect(translator.message(for: LocationUpdate(location: sampleLocation(secondsLater: 1_200)), now: 0) != nil)
    }

    @Test func anUpdateWithoutLocationSendsNothingAndKeepsItsDiagnostics() {
        var translator = UpdateTranslator(device: device)
        var diagnostics = Diagnostics()
        diagnostics.daemonUnavailable = true
        #expect(translator.message(for: LocationUpdate(location: nil, diagnostics: diagnostics), now: 0) == nil)
        #expect(translator.diagnostics == ["daemonUnavailable"])
        _ = translator.message(for: LocationUpdate(location: sampleLocation()), now: 0)
        #expect(translator.diagnostics.isEmpty)
    }
}
