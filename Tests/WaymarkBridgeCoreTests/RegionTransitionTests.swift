import Testing
import WaymarkBridgeCore
import WaymarkJSON
import WaymarkLocation

let home = OwnTracksRegion(name: "Home \"1\"", latitude: 47.3769, longitude: 8.5417, radius: 150, created: 1_795_400_000)

func regionEvent(_ state: RegionEvent.State, fix: Location? = nil) -> RegionEvent {
    RegionEvent(region: home.name, state: state, date: Timestamp(nanosecondsSinceEpoch: 1_795_420_805_750_000_000), fix: fix, sequence: 1)
}

@Suite struct RegionTransitionTests {
    /// Every pair of (last published state, new state): only a crossing is a transition.
    @Test(arguments: [
        (RegionEvent.State?.none, RegionEvent.State.inside, OwnTracksPayload.Transition?.some(.enter)),
        (nil, .outside, nil), (nil, .undecided, nil),
        (.inside, .inside, nil), (.inside, .outside, .leave), (.inside, .undecided, nil),
        (.outside, .inside, .enter), (.outside, .outside, nil), (.outside, .undecided, nil),
    ])
    func onlyACrossingIsATransition(previous: RegionEvent.State?, state: RegionEvent.State, expected: OwnTracksPayload.Transition?) {
        #expect(regionEvent(state).transition(after: previous) == expected)
    }

    @Test func anUndecidedEventKeepsTheLastDecidedState() {
        #expect(regionEvent(.undecided).state(after: .inside) == .inside)
        #expect(regionEvent(.undecided).state(after: nil) == nil)
        #expect(regionEvent(.outside).state(after: .inside) == .outside)
    }

    @Test func aTransitionCarriesTheDecidingFixAndTheBookletsMembers() {
        let payload = OwnTracksPayload.transition(.enter, region: home, fix: sampleLocation(), date: regionEvent(.inside).date, device: device)
        #expect(
            payload
                == #"{"_type":"transition","wtst":1795400000,"lat":47.3769123,"lon":8.5417000,"tst":1795420805,"acc":5,"tid":"pi","event":"enter","desc":"Home \"1\"","rid":"d0f589","t":"c"}"#)
    }

    @Test func withoutItsFixATransitionIsPlacedAtTheRegionWithItsRadiusAsAccuracy() throws {
        var notOnEarth = sampleLocation()
        notOnEarth.latitude = .nan
        for fix in [nil, notOnEarth] {
            let payload = OwnTracksPayload.transition(.leave, region: home, fix: fix, date: regionEvent(.outside).date, device: device)
            let object = try #require(try JSONParser().parse(Array(payload.utf8)).objectValue)
            #expect(object["lat"] == .double(47.3769) && object["lon"] == .double(8.5417))
            #expect(object["acc"] == .integer(150) && object["event"] == .string("leave"))
        }
    }

    @Test func theRegionsAreAWaypointsList() {
        #expect(
            OwnTracksPayload.waypoints([home])
                == #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Home \"1\"","lat":47.3769000,"lon":8.5417000,"rad":150,"tst":1795400000,"rid":"d0f589"}]}"#)
        #expect(device.eventTopic == "owntracks/jane/pi/event" && device.waypointsTopic == "owntracks/jane/pi/waypoints")
    }

    /// The `rid` is the first six hex digits of FNV-1a (32 bits) over the name's UTF-8 and the
    /// little-endian bytes of latitude, longitude, radius and creation ("d0f589" computed
    /// apart, in Python). The same region keeps it; a moved, resized or renamed one changes it.
    @Test func theRegionIDIsStableAndFollowsEveryMember() {
        #expect(home.id == "d0f589")
        var moved = home
        moved.latitude += 1e-7
        var resized = home
        resized.radius = 151
        var renamed = home
        renamed.name = "Home"
        #expect(Set([home, moved, resized, renamed].map(\.id)).count == 4)
    }

    @Test func recentFixesFindTheDecidingFixAndForgetTheOldest() {
        var fixes = RecentFixes()
        var location = sampleLocation()
        let first = location.timestamp
        #expect(fixes.fix(at: first) == nil && !fixes.hasReached(first))
        for second in 0..<(RecentFixes.capacity + 1) {
            location.timestamp = Timestamp(nanosecondsSinceEpoch: first.nanosecondsSinceEpoch + Int64(second) * 1_000_000_000)
            fixes.record(location)
        }
        #expect(fixes.fix(at: first) == nil, "the oldest is forgotten")
        #expect(fixes.hasReached(first))
        #expect(fixes.fix(at: location.timestamp) == location)
    }
}
