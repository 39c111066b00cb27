import Foundation
import Testing
import WaymarkJSON
import WaymarkProtocol

/// Every message in `docs/protocol.md`'s JSON examples decodes, and survives a round trip, so
/// the page cannot drift from the code.
@Suite("docs/protocol.md examples")
struct DocumentationTests {
    static let lines: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
        var lines: [String] = []
        var inJSON = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inJSON = line == "```json"
            } else if inJSON {
                lines.append(String(line))
            }
        }
        return lines
    }()

    @Test func thePageHasExamples() {
        #expect(Self.lines.count >= 15)
    }

    @Test(arguments: lines)
    func exampleDecodes(line: String) throws {
        let object = try #require(try JSONParser().parse(line).objectValue)
        let bytes = Array(line.utf8)
        if object["event"] != nil || object["result"] != nil || object["error"] != nil {
            let message = try ServerMessage(line: bytes)
            if case .reply(let reply) = message, case .failure(let error) = reply.outcome, object["error"] == nil {
                Issue.record("the result does not decode: \(error)")
            }
            #expect(try ServerMessage(line: message.line.dropLast()) == message)
        } else {
            let request = try Request(line: bytes)
            #expect(try Request(line: request.line.dropLast()) == request)
        }
    }

    @Test func everyMessageHasASchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let schemas = root.appendingPathComponent("docs/protocol/schemas")
        var expected = ["common", "reply-error", "event-update", "event-batch", "event-sessionDiagnostics", "event-monitorEvent", "event-visit"]
        for operation in OperationName.allCases {
            expected += ["request-\(operation.rawValue)", "reply-\(operation.rawValue)"]
        }
        for name in expected {
            let data = try Data(contentsOf: schemas.appendingPathComponent("\(name).json"))
            #expect(try JSONParser().parse(Array(data)).objectValue?["$schema"] != nil, "\(name).json")
        }
    }
}
