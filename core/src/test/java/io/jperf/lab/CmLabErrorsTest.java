package io.jperf.lab;

import io.jperf.cm.CmClient;
import io.jperf.cm.CmEventType;
import io.jperf.cm.CmException;
import io.jperf.cm.CmOptions;
import io.jperf.cm.CmServer;
import io.jperf.cm.QpResources;
import io.jperf.cm.QpSetup;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

import static io.jperf.lab.CmLabConnectTest.env;
import static io.jperf.lab.CmLabConnectTest.ip;
import static io.jperf.lab.CmLabConnectTest.withoutCtx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RDMA CM failures in one guest, each decoded into a {@link CmException} within its timeout that
 * names the call, the addresses and the kernel's route. No traffic leaves the guest: it has no NIC,
 * and the addresses used are either unroutable in the guest or on the veth pair.
 */
@Tag("lab")
class CmLabErrorsTest {
    private static final InetAddress SERVER_IP = ip(env("LAB_IP_RAIL0", "10.20.0.1"));
    private static final InetAddress CLIENT_IP = ip(env("LAB_PEER_IP_RAIL0", "10.20.0.2"));
    /** Slack for a slow emulated guest on top of every timeout. */
    private static final Duration SLACK = Duration.ofSeconds(3);
    private static final CmOptions SHORT = CmOptions.perftest().withResolve(Duration.ofMillis(500), 2);

    private static final QpSetup SETUP = endpoint -> {
        ProtectionDomain pd = endpoint.context().allocateProtectionDomain();
        var cq = endpoint.context().createCompletionQueue(4, null);
        return new QpResources(pd, cq, cq, new QpCapabilities(4, 1, 1, 1, 0));
    };

    private interface Step {
        void run();
    }

    private static CmException failsWithin(Duration limit, Step step) {
        long t0 = System.nanoTime();
        CmException e = assertThrows(CmException.class, step::run);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        System.out.println("CmLabErrorsTest (" + took.toMillis() + " ms): " + e.getMessage());
        assertTrue(took.compareTo(limit.plus(SLACK)) < 0, "failed after " + took + ", limit " + limit + " + slack");
        return e;
    }

    @Test
    void unroutableDestinationFailsFastWithTheRouteLookup() throws Exception {
        Map<String, String> before = withoutCtx(LabDevices.resourceCounts());
        InetAddress testNet = ip("192.0.2.1"); // TEST-NET-1: the guest has no route at all for it
        Duration timeout = Duration.ofSeconds(5);
        CmException e = failsWithin(timeout, () -> CmClient.connect(new InetSocketAddress(testNet, 18700), CLIENT_IP,
                1, SETUP, SHORT, timeout));
        assertEquals("rdma_resolve_addr", e.call());
        String m = e.getMessage();
        assertTrue(m.matches("rdma_resolve_addr 10\\.20\\.0\\.2(:\\d+)? -> 192\\.0\\.2\\.1:18700 failed: .*"), m);
        assertTrue(m.contains("the kernel has no route to 192.0.2.1 from 10.20.0.2"), m);
        assertTrue(m.contains("ENETUNREACH"), m);
        assertTrue(m.contains("add a route to 192.0.2.1 through veth1"), m);
        assertEquals(before, withoutCtx(LabDevices.resourceCounts()), "nothing left behind");
    }

    @Test
    void silentNeighbourGivesAddrErrorAfterTheTries() throws Exception {
        InetAddress nobody = ip("10.20.0.77"); // on the veth subnet, owned by no one: ARP goes unanswered
        Duration timeout = Duration.ofSeconds(10);
        CmException e = failsWithin(Duration.ofMillis(2 * 500 + 2 * 1000), () -> CmClient.connect(
                new InetSocketAddress(nobody, 18701), CLIENT_IP, 1, SETUP, SHORT, timeout));
        String m = e.getMessage();
        assertEquals(CmException.Kind.ERROR_EVENT, e.kind(), m);
        assertEquals(CmEventType.ADDR_ERROR, e.event().orElseThrow().type(), m);
        assertEquals(2, e.tries());
        assertTrue(m.matches("rdma_resolve_addr 10\\.20\\.0\\.2(:\\d+)? -> 10\\.20\\.0\\.77:18701 failed:"
                + " RDMA_CM_EVENT_ADDR_ERROR \\(status .*"), m);
        assertTrue(m.contains(" after 2 tries of 500 ms; the kernel routes 10.20.0.77 from 10.20.0.2 via "), m);
        assertTrue(m.contains("(table "), "the table that answered: " + m);
    }

    @Test
    void noListenerIsRejectedWithInvalidServiceId() throws Exception {
        Map<String, String> before = withoutCtx(LabDevices.resourceCounts());
        Duration timeout = Duration.ofSeconds(20);
        CmException e = failsWithin(timeout, () -> CmClient.connect(new InetSocketAddress(SERVER_IP, 18702),
                CLIENT_IP, 1, SETUP, SHORT, timeout));
        assertEquals("rdma_connect", e.call(), e.getMessage());
        assertEquals(CmEventType.REJECTED, e.event().orElseThrow().type(), e.getMessage());
        assertTrue(e.getMessage().matches("rdma_connect 10\\.20\\.0\\.2:\\d+ -> .*"),
                "the source the CM used, with its port: " + e.getMessage());
        assertTrue(e.getMessage().contains("-> 10.20.0.1:18702"), e.getMessage());
        assertEquals(before, withoutCtx(LabDevices.resourceCounts()), "the QP, PD and CQ of the failed connection are gone");
    }

    @Test
    void aServerThatNeverAcceptsMakesTheClientTimeOutNotHang() throws Exception {
        Map<String, String> before = withoutCtx(LabDevices.resourceCounts());
        try (CmServer server = CmServer.listen(new InetSocketAddress(SERVER_IP, 18703), 1)) {
            Duration timeout = Duration.ofSeconds(4);
            CmException e = failsWithin(timeout, () -> CmClient.connect(new InetSocketAddress(SERVER_IP, 18703),
                    CLIENT_IP, 1, SETUP, SHORT, timeout));
            assertEquals("rdma_connect", e.call(), e.getMessage());
            assertEquals(CmException.Kind.TIMEOUT, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("no RDMA CM event within"), e.getMessage());
            assertTrue(e.getMessage().contains("the kernel routes 10.20.0.1 from 10.20.0.2 via veth1"), e.getMessage());
        }
        assertEquals(before, withoutCtx(LabDevices.resourceCounts()), "the unaccepted request was rejected and destroyed");
    }

    @Test
    void acceptWithoutClientsTimesOut() throws Exception {
        try (CmServer server = CmServer.listen(new InetSocketAddress(SERVER_IP, 18704), 1)) {
            Duration timeout = Duration.ofSeconds(1);
            CmException e = failsWithin(timeout, () -> server.accept(1, SETUP, timeout));
            assertEquals(CmException.Kind.TIMEOUT, e.kind());
            assertTrue(e.getMessage().startsWith("rdma_listen (waiting for connect request 1 of 1) 10.20.0.1:18704 -> *"
                    + " failed: no RDMA CM event within 1 s"), e.getMessage());
        }
    }
}
