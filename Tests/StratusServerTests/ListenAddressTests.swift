import StratusServer
import Testing

/// Which addresses `stratus serve` may listen on over plain HTTP: only those no other machine reaches.
@Suite struct ListenAddressTests {
    @Test(arguments: ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "0:0:0:0:0:0:0:1"])
    func loopbackAddresses(_ host: String) {
        #expect(ListenAddress.isLoopback(host))
    }

    @Test(arguments: ["0.0.0.0", "::", "10.0.0.5", "192.168.1.20", "127.0.0.256", "127.0.0.1.example.com", "example.com", "", "128.0.0.1"])
    func addressesOtherMachinesReach(_ host: String) {
        #expect(!ListenAddress.isLoopback(host))
    }
}
