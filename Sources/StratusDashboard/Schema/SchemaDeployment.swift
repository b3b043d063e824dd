/// `i` on a production store, once the user has read what it changes: importing a `.ckdb` into
/// production is deploying a schema, the one way CloudKit changes a production schema, so it is
/// asked for rather than done on Enter.
struct SchemaDeployment: ConfirmAction {
    /// The `.ckdb` file to deploy.
    let path: String

    func confirmed(in state: inout DashboardState) -> [Effect] {
        [.schema(.importFile(job: state.startJob(.schema, "deploy the schema"), path: path))]
    }

    func declined(in state: inout DashboardState) -> [Effect] {
        state.status = StatusMessage("Not deployed: the production schema is as it was.")
        return []
    }
}
