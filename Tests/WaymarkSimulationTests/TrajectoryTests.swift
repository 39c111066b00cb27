import Foundation
import Testing
import WaymarkClock
import WaymarkSimulation

@Suite("Ground truth")
struct TrajectoryTests {
    @Test("desk-day adds up: 8 h, 50 min (0.83 h) truly moving, 13 motion starts, for any seed", arguments: [1, 2, 99] as [UInt64])
    func deskDay(seed: UInt64) throws {
        let trajectory = Trajectory(scenario: try ScenarioFiles.scenario("desk-day"), seed: seed)
        #expect(trajectory.end == .zero + .seconds(8 * 3_600))
        #expect(trajectory.movingTime == .seconds(50 * 60))
        #expect(trajectory.motionStarts.count == 13)
        // 20 min walking at 1.4 m/s and 30 min of legs at up to 14 m/s.
        #expect(trajectory.totalDistance > 1_600 + 20_000 && trajectory.totalDistance < 1_700 + 25_200)
        let stopped = trajectory.movingIntervals.dropFirst(2).prefix(10).indices.map { index in
            trajectory.movingIntervals[index].lowerBound - trajectory.movingIntervals[index - 1].upperBound
        }
        #expect(stopped.allSatisfy { $0 >= .seconds(30) && $0 <= .seconds(90) })
        #expect(stopped.reduce(.zero, +) == .seconds(600))
    }

    @Test("truth at instants: still on the desk, walking, idling at a stop, driving")
    func truthAtInstants() throws {
        let trajectory = Trajectory(scenario: try ScenarioFiles.scenario("desk-day"), seed: 1)
        let desk = trajectory.truth(at: .zero + .seconds(3_600))
        #expect(!desk.isMoving && desk.kind == .desk && desk.activity == .desk && desk.speed == 0 && desk.distance == 0)
        let walkStart = trajectory.motionStarts[0]
        #expect(walkStart == .zero + .seconds(3 * 3_600))
        let walking = trajectory.truth(at: walkStart + .seconds(60))
        #expect(walking.isMoving && walking.kind == .walk && walking.activity == .walking)
        #expect(abs(walking.speed - 1.4) < 1e-9 && walking.course == 40)
        let metresNorth = (walking.position.latitude - 47.3769) * 111_195
        #expect(abs(metresNorth - walking.distance * cos(40 * Double.pi / 180)) < 0.5)
        let stop = trajectory.movingIntervals[2].upperBound + .seconds(10)
        let idling = trajectory.truth(at: stop)
        #expect(!idling.isMoving && idling.kind == .drive && idling.activity == .carIdling && idling.speed == 0)
        let pullingOff = trajectory.truth(at: trajectory.movingIntervals[2].lowerBound + .seconds(3))
        #expect(pullingOff.isMoving && abs(pullingOff.speed - 6) < 1e-9)
        let distance = trajectory.distance(at: .zero + .seconds(5 * 3_600))
        #expect(distance == trajectory.distance(at: trajectory.end))
    }

    @Test("outside the scenario the device stays where it started and where it ended")
    func outside() throws {
        let trajectory = Trajectory(scenario: try ScenarioFiles.scenario("demo"), seed: 1)
        let before = trajectory.truth(at: .zero - .seconds(5))
        #expect(before.position == GeoPoint(latitude: 47.3769, longitude: 8.5417, altitude: 408))
        let after = trajectory.truth(at: trajectory.end + .seconds(3_600))
        #expect(!after.isMoving && after.position == trajectory.truth(at: trajectory.end).position)
        #expect(after.distance == trajectory.totalDistance)
    }

    @Test("a lift ride moves vertically between two waits")
    func lift() throws {
        let scenario = try ScenarioParser.parse("start 2026-11-23T08:00:00Z 47 8 400\nlift 40s up=15m", file: "lift")
        let trajectory = Trajectory(scenario: scenario, seed: 1)
        #expect(trajectory.movingIntervals.count == 1)
        let ride = trajectory.movingIntervals[0]
        // 15 m at 1.5 m/s with 0.8 m/s² ramps: 10 s + 1.875 s, centred.
        #expect(abs((ride.upperBound - ride.lowerBound).seconds - 11.875) < 1e-6)
        #expect(abs(ride.lowerBound.seconds - (40 - 11.875) / 2) < 1e-6)
        let end = trajectory.truth(at: trajectory.end)
        #expect(abs(end.position.altitude - 415) < 1e-6 && end.position.latitude == 47 && end.distance == 15)
        let riding = trajectory.truth(at: ride.lowerBound + .seconds(5))
        #expect(riding.activity == .liftRiding && riding.isMoving && riding.speed == 0 && riding.verticalSpeed == 1.5)
    }

    @Test("a flight climbs to its cruising altitude and lands at its departure elevation")
    func flight() throws {
        let trajectory = Trajectory(scenario: try ScenarioFiles.scenario("flight"), seed: 1)
        // Gate, boarding, seated and taxi take 50 min; the climb ends 1,100 s into the flight.
        let cruising = trajectory.truth(at: .zero + .seconds(50 * 60 + 3_600))
        #expect(cruising.kind == .flight && cruising.activity == .flying && cruising.isMoving)
        #expect(abs(cruising.position.altitude - 11_432) < 1e-6 && abs(cruising.speed - 230) < 1e-9)
        let landed = trajectory.truth(at: trajectory.end)
        #expect(abs(landed.position.altitude - 432) < 1e-6)
        #expect(trajectory.totalDistance > 1_500_000)
    }

    @Test("the seed changes the details, not the sums")
    func seeds() throws {
        let scenario = try ScenarioFiles.scenario("desk-day")
        let one = Trajectory(scenario: scenario, seed: 1)
        let two = Trajectory(scenario: scenario, seed: 2)
        #expect(one.movingIntervals != two.movingIntervals)
        #expect(one.movingTime == two.movingTime)
        #expect(Trajectory(scenario: scenario, seed: 1).movingIntervals == one.movingIntervals)
    }
}
