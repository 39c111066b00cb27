import WaymarkJSON
package import WaymarkLocation

/// The answer to `visits`: one page of the visit diary (``ReplyPage``), oldest arrival first,
/// the visits that arrived after the request's `after`; `more` when others follow, to ask for
/// with the last one's arrival as `after`. The diary keeps 1,000 visits: more than a line holds.
package struct VisitDiaryPage: Hashable, Sendable {
    /// The visits, oldest arrival first.
    package var visits: [Visit]
    /// Whether visits follow the last of ``visits``.
    package var more: Bool

    /// Creates an answer.
    package init(visits: [Visit], more: Bool = false) {
        self.visits = visits
        self.more = more
    }

    /// The page of `diary` (oldest arrival first) that follows the arrival `after`.
    package init(page diary: [Visit], after: Timestamp?) {
        let following = diary.drop { visit in after.map { visit.arrivalDate <= $0 } ?? false }
        let page = ReplyPage.first(of: following) { visit, buffer in visit.write(to: &buffer) }
        self.init(visits: page.entries, more: page.more)
    }

    /// Writes the members of the reply's `result`.
    func writeMembers(to buffer: inout JSONBuffer) {
        ReplyPage.write("visits", visits, more: more, to: &buffer) { visit, buffer in visit.write(to: &buffer) }
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(visits: try fields.objects("visits", Visit.init), more: try ReplyPage.more(in: fields))
    }
}
