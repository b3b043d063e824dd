/// How far a ``Store/copy(to:progress:)`` has come: rows of one table written so far, of how
/// many, for a front end that reports a long copy as it goes.
package struct StoreCopyProgress: Sendable {
    package let table: CopiedTable
    package let copied: Int
    package let total: Int
}
