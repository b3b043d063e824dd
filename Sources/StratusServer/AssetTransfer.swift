import Foundation
import Hummingbird
import StratusEngine
import StratusCloud

/// The asset bytes themselves: `POST /assets/upload/TICKET` stores an upload, and
/// `GET /assets/download/CONTAINER/ENVIRONMENT/CHECKSUM` serves an asset's content: exactly
/// the URL a fetched record's `downloadURL` names, nothing after the checksum.
struct AssetTransfer: Sendable {
    let stores: StoreDirectory
    let tickets: AssetTickets
    let maximumBytes: Int

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let uuid = RequestUUID.make()
        let parts = request.uri.path.split(separator: "/").map(String.init)
        do {
            if parts.count == 3, parts[1] == "upload", request.method == .post {
                var request = request
                let bytes: ByteBuffer
                do {
                    bytes = try await request.collectBody(upTo: maximumBytes)
                } catch {
                    throw CKWSFailure(status: 413, serverErrorCode: "BAD_REQUEST", reason: "An asset may be at most \(maximumBytes) bytes")
                }
                let data = Data(bytes.readableBytesView)
                let tickets = self.tickets, ticket = parts[2]
                let json = try await CKWSResponder.offload {
                    guard let store = tickets.redeem(ticket) else {
                        throw CKWSFailure(status: 401, serverErrorCode: "AUTHENTICATION_FAILED", reason: "The upload URL is unknown, used or expired (they last 15 minutes); ask assets/upload for another")
                    }
                    return try AssetEndpoints.receive(data, into: store)
                }
                return CKWSResponder.response(status: .ok, body: json, uuid: uuid)
            }
            if parts.count == 5, parts[1] == "download", request.method == .get, !request.uri.path.hasSuffix("/") {
                let stores = self.stores, container = parts[2], environment = parts[3], checksum = parts[4]
                let data = try await CKWSResponder.offload {
                    let store = try stores.store(container: container, environment: environment)
                    guard let data = try store.assetData(checksum: checksum) else { throw CKWSFailure.notFound("No asset \(checksum) in this store") }
                    return data
                }
                var headers = HTTPFields()
                headers[.contentType] = "application/octet-stream"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
            throw CKWSFailure.notFound("No asset endpoint at \(request.uri.path)")
        } catch let failure as CKWSFailure {
            return CKWSResponder.response(status: .init(code: failure.status), body: failure.json(uuid: uuid), uuid: uuid)
        } catch let error as CloudKitError {
            let failure = CKWSFailure(error)
            return CKWSResponder.response(status: .init(code: failure.status), body: failure.json(uuid: uuid), uuid: uuid)
        }
    }
}
