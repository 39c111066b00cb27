import Testing
import WaymarkClock
import WaymarkSimulation

@Suite("Generated scenarios")
struct ScenarioGeneratorTests {
    static let seeds: ClosedRange<UInt64> = 1...200

    static func scenario(_ seed: UInt64, length: Duration? = nil) throws -> Scenario {
        try ScenarioParser.parse(ScenarioGenerator.text(seed: seed, length: length), file: "generated:\(seed)")
    }

    @Test("every seed's day is a valid scenario file, as long as asked (or 2–36 h), and the same text for the same seed")
    func validAndDeterministic() throws {
        for seed in Self.seeds {
            let scenario = try Self.scenario(seed)
            #expect(scenario.duration >= .seconds(2 * 3_600))
            #expect(ScenarioGenerator.text(seed: seed) == ScenarioGenerator.text(seed: seed))
            #expect(try Self.scenario(seed, length: .seconds(1_800)).duration >= .seconds(1_800))
        }
        #expect(ScenarioGenerator.text(seed: 1) != ScenarioGenerator.text(seed: 2))
    }

    @Test("over 200 seeds every kind and every option of the format is written")
    func coversTheFormat() throws {
        var kinds = Set<SegmentKind>()
        var options = Set<String>()
        for seed in Self.seeds {
            for line in ScenarioGenerator.text(seed: seed).split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("start") {
                let tokens = line.split(separator: " ")
                let kind = try #require(SegmentKind(rawValue: String(tokens[0])))
                kinds.insert(kind)
                for option in tokens.dropFirst(2) { options.insert(kind.rawValue + " " + (option.split(separator: "=").first.map(String.init) ?? "")) }
            }
        }
        #expect(kinds == Set(SegmentKind.allCases))
        let expected: Set<String> = [
            "desk typing", "desk door-slams", "walk heading", "walk speed", "drive heading", "drive speed", "drive stops",
            "drive stop", "drive accel", "lift up", "lift down", "lift speed", "lift accel", "flight heading", "flight speed",
            "flight altitude",
        ]
        #expect(options == expected)
    }

    @Test("the distribution's extremes occur: nights and weekends of stillness, stops of 3–30 s, a few steps, gentle pull-offs")
    func extremes() throws {
        var longestStill = Duration.zero
        var shortestStill = Duration.seconds(3_600)
        var shortestWalk = Duration.seconds(3_600)
        var gentlest = 10.0
        var shortStops = 0
        for seed in Self.seeds {
            for segment in try Self.scenario(seed).segments {
                switch segment.plan {
                case .desk, .still:
                    longestStill = max(longestStill, segment.duration)
                    shortestStill = min(shortestStill, segment.duration)
                case .walk(_, let speed):
                    shortestWalk = min(shortestWalk, segment.duration)
                    #expect((0.8...1.8).contains(speed))
                case .drive(_, _, let stops, let stopLength, let acceleration):
                    gentlest = min(gentlest, acceleration)
                    #expect((0.5...3).contains(acceleration))
                    if stops > 0, stopLength.upperBound <= .seconds(30) { shortStops += stops }
                case .lift(_, _, let acceleration):
                    #expect((0.4...1.5).contains(acceleration))
                default:
                    break
                }
            }
        }
        #expect(longestStill >= .seconds(40 * 3_600))
        #expect(shortestStill <= .seconds(5))
        #expect(shortestWalk <= .seconds(5))
        #expect(gentlest < 0.6)
        #expect(shortStops > 100)
    }
}
