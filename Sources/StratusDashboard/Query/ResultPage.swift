/// A page of query results as the Query tab remembers it after its rows may be dropped: the
/// cursor it was fetched from (nil: the first page, fetched by running the query) and how many
/// rows it had.
struct ResultPage: Hashable, Sendable {
    var cursor: String?
    var count: Int

    init(cursor: String?, count: Int) {
        self.cursor = cursor
        self.count = count
    }
}
