import Testing
import WaymarkJSON

@Suite("JSON parser: random input never crashes")
struct FuzzTests {
    /// A small deterministic generator (xorshift64), so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    static let seedText = Array(#"{"id":1,"op":"startLiveUpdates","a":[1.5e-3,-0,"\u00e9\ud83d\ude00",true,null,{"x":{}}]}"#.utf8)
    static let alphabet = Array(#"{}[]:,"\/ubfnrt0123456789.eE+-aeflnrstu "#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF, 0xED, 0xA0, 0x80]

    @Test func randomBytes() {
        var random = Generator(state: 1)
        let parser = JSONParser(maximumDepth: 16, maximumLength: 4096)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<64, using: &random)
            let bytes = (0..<length).map { _ in Self.alphabet.randomElement(using: &random)! }
            _ = try? parser.parse(bytes)
        }
    }

    @Test func mutationsOfValidText() throws {
        var random = Generator(state: 2)
        let parser = JSONParser(maximumDepth: 16, maximumLength: 4096)
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = Self.seedText
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[position] = Self.alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: position)
                default: bytes.insert(Self.alphabet.randomElement(using: &random)!, at: position)
                }
            }
            if let value = try? parser.parse(bytes) {
                accepted += 1
                // Whatever is accepted is written back as text that parses to the same value.
                #expect(try parser.parse(value.jsonText) == value)
            }
        }
        #expect(accepted > 0)
    }
}
