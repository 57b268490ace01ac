package io.jperf.lab;

import io.jperf.engine.JperfServer;
import io.jperf.engine.JperfServer.Served;
import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Rdma;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jperf serve} on real rxe devices: one server serves successive clients, each with its own
 * kind and parameters, on the device that carries the address the client asked for (or connected
 * to), with and without RDMA CM, and refuses what it cannot run without stopping.
 */
@Tag("lab")
class LabServeTest {
    private static final String SERVER_DEV = "rxe0";
    private static final String CLIENT_DEV = "rxe1";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final BlockingQueue<Served> SERVED = new LinkedBlockingQueue<>();
    private static volatile boolean stop;
    private static JperfServer server;
    private static Thread serving;
    private static String serverIp;
    private static int serverGid;

    @BeforeAll
    static void startServing() throws IOException {
        GidEntry s;
        try (Context ctx = Rdma.open(SERVER_DEV)) {
            s = GidSelection.perftestDefault(ctx.queryPort(1)).orElseThrow();
        }
        serverIp = s.ipAddress().orElseThrow().getHostAddress();
        serverGid = s.index();
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        // the base device is the client's one: a test that lands on rxe0 proves the address chose it
        server = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).port(port).device(CLIENT_DEV).build())
                .timeout(TIMEOUT).serveClients();
        serving = Thread.ofPlatform().name("jperf-serve").daemon().start(() -> {
            while (!stop) {
                try {
                    server.serveNext(Duration.ofMillis(500)).ifPresent(SERVED::add);
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterAll
    static void stopServing() throws Exception {
        stop = true;
        serving.join(5000);
        server.close();
    }

    private static TestOptions.Builder client(TestKind kind, String host) {
        return TestOptions.builder(kind).device(CLIENT_DEV).iterations(200).serverHost(host).port(server.port());
    }

    private static PerfTest test(TestOptions options) {
        return PerfTest.of(options).timeout(TIMEOUT).settleDelay(Duration.ZERO);
    }

    private static Served served() throws InterruptedException {
        Served s = SERVED.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertNotNull(s, "the server reported no served client");
        return s;
    }

    @Test
    void successiveClientsRunTheirOwnKindsOnTheDeviceOfTheAddressTheyReached() throws Exception {
        PerfTestResult bw = test(client(TestKind.WRITE_BW, serverIp).size(4096).numQps(2).build()).run();
        Served first = served();
        assertTrue(first.failure().isEmpty(), () -> "server failed: " + first.failure());
        TestOptions adopted = first.options().orElseThrow();
        assertEquals(SERVER_DEV, adopted.target().device(), "the control connection reached rxe0's address");
        assertEquals(serverGid, adopted.target().gidIndex());
        assertEquals(4096, adopted.params().size());
        assertEquals(2, adopted.params().numQps());
        assertEquals(4096, bw.bandwidth().getFirst().sizeBytes());
        assertTrue(bw.bandwidth().getFirst().average() > 0);

        PerfTestResult lat = test(client(TestKind.WRITE_LAT, serverIp).size(2).build()).run();
        Served second = served();
        assertTrue(second.failure().isEmpty(), () -> "server failed: " + second.failure());
        assertEquals(TestKind.WRITE_LAT, second.options().orElseThrow().params().kind());
        assertTrue(lat.latency().getFirst().typicalUs() > 0);
        assertTrue(lat.path().orElseThrow().peer().isPresent(), "the served end sends its path record");
    }

    @Test
    void theRequestedAddressChoosesTheDeviceWhateverTheControlConnectionReached() throws Exception {
        PerfTestResult r = test(client(TestKind.WRITE_BW, "127.0.0.1").build()).servePeerAddress(serverIp).run();
        Served s = served();
        assertTrue(s.failure().isEmpty(), () -> "server failed: " + s.failure());
        assertEquals(SERVER_DEV, s.options().orElseThrow().target().device());
        assertEquals(serverIp, r.path().orElseThrow().local().destination().getHostAddress(),
                "the client's RDMA destination is the requested address");
    }

    @Test
    void rdmaCmIsServedOnTheRequestedAddress() throws Exception {
        PerfTestResult r = test(client(TestKind.WRITE_BW, serverIp).rdmaCm(true).build()).run();
        Served s = served();
        assertTrue(s.failure().isEmpty(), () -> "server failed: " + s.failure());
        assertTrue(s.options().orElseThrow().params().rdmaCm());
        assertEquals(SERVER_DEV, s.options().orElseThrow().target().device());
        assertEquals(CLIENT_DEV, r.rdmaCm().getFirst().device(), "the client's CM resolved through its own device");
        assertTrue(r.bandwidth().getFirst().average() > 0);
    }

    @Test
    void anAddressTheServerDoesNotHaveIsRefusedAndTheServerGoesOn() throws Exception {
        TestFailedException e = assertThrows(TestFailedException.class,
                () -> test(client(TestKind.WRITE_BW, serverIp).build()).servePeerAddress("192.0.2.7").run());
        assertTrue(e.getMessage().contains("no RDMA device of the server has a GID with 192.0.2.7"), e.getMessage());
        Served refused = served();
        assertTrue(refused.failure().isPresent());
        assertFalse(refused.result().isPresent());

        PerfTestResult after = test(client(TestKind.WRITE_BW, serverIp).build()).run();
        assertTrue(served().failure().isEmpty(), "the next client is served");
        assertTrue(after.bandwidth().getFirst().average() > 0);
    }
}
