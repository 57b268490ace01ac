package io.jperf.lab;

import io.jperf.cm.CmClient;
import io.jperf.cm.CmConnection;
import io.jperf.cm.CmConnections;
import io.jperf.cm.CmEndpoint;
import io.jperf.cm.CmOptions;
import io.jperf.cm.CmPath;
import io.jperf.cm.CmServer;
import io.jperf.cm.QpResources;
import io.jperf.cm.QpSetup;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.CompletionStatus;
import io.jperf.datapath.WorkRequestList;
import io.jperf.verbs.Access;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.Context;
import io.jperf.verbs.Gid;
import io.jperf.verbs.MemoryRegion;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import io.jperf.verbs.QpState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RDMA CM end to end in one guest: a server on 10.20.0.1 (rxe0) and a client bound to 10.20.0.2
 * (rxe1), in one JVM on two threads, with 1 and 2 connections. The engine's part (PD, CQ, buffers)
 * is created by a {@link QpSetup} on the context the CM resolved; each connected QP then writes a
 * pattern into the peer's buffer with one RDMA WRITE, and closing leaves nothing behind.
 */
@Tag("lab")
class CmLabConnectTest {
    private static final int SLOT = 4096;
    private static final Set<Access> REMOTE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final InetAddress SERVER_IP = ip(env("LAB_IP_RAIL0", "10.20.0.1"));
    private static final InetAddress CLIENT_IP = ip(env("LAB_PEER_IP_RAIL0", "10.20.0.2"));

    /** What an engine keeps per device context: one PD, one CQ, one buffer with a slot per connection. */
    static final class Engine implements QpSetup {
        final int slots;
        final Map<Context, Resources> perDevice = new LinkedHashMap<>();

        record Resources(ProtectionDomain pd, CompletionQueue cq, MemoryRegion mr) {
        }

        Engine(int slots) {
            this.slots = slots;
        }

        @Override
        public QpResources resources(CmEndpoint endpoint) {
            Resources r = perDevice.computeIfAbsent(endpoint.context(), ctx -> {
                ProtectionDomain pd = ctx.allocateProtectionDomain();
                return new Resources(pd, ctx.createCompletionQueue(16, null),
                        pd.allocateAndRegister((long) SLOT * slots, 4096, REMOTE));
            });
            // Per-connection private data: where this connection's slot is and its rkey (what an engine
            // would tell the peer); the server's goes back in the accept.
            ByteBuffer info = ByteBuffer.allocate(12).putLong(r.mr().address() + (long) SLOT * endpoint.index())
                    .putInt(r.mr().rkey());
            return new QpResources(r.pd(), r.cq(), r.cq(), new QpCapabilities(16, 1, 1, 1, 0), info.array());
        }

        Resources only() {
            assertEquals(1, perDevice.size(), "one device context per side: " + perDevice.keySet());
            return perDevice.values().iterator().next();
        }
    }

    @ParameterizedTest(name = "{0} connection(s)")
    @ValueSource(ints = {1, 2})
    void clientOnRxe1ConnectsToServerOnRxe0AndEachQpWritesIntoThePeer(int count) throws Exception {
        Map<String, String> before = withoutCtx(LabDevices.resourceCounts());
        int port = 18600 + count;
        Engine serverEngine = new Engine(count);
        Engine clientEngine = new Engine(count);

        long t0 = System.nanoTime();
        CmServer server = CmServer.listen(new InetSocketAddress(SERVER_IP, port), count);
        CmConnections serverConns = null;
        CmConnections clientConns = null;
        // Two real threads: the common pool may have a single worker on a 2-vCPU guest.
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<CmConnections> accepted = CompletableFuture.supplyAsync(() -> server.accept(count,
                    serverEngine, CmOptions.perftest(), TIMEOUT), threads);
            CompletableFuture<CmConnections> connected = CompletableFuture.supplyAsync(() -> CmClient.connect(
                    new InetSocketAddress(SERVER_IP, port), CLIENT_IP, count, clientEngine,
                    CmOptions.perftest(), TIMEOUT), threads);
            clientConns = connected.get(TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
            serverConns = accepted.get(TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
            System.out.printf("CmLabConnectTest: %d connection(s) established in %d ms%n", count,
                    (System.nanoTime() - t0) / 1_000_000);
            assertEquals(count, clientConns.size());
            assertEquals(count, serverConns.size());

            for (CmConnection c : clientConns.list()) {
                System.out.println("client " + c);
                CmPath p = c.path();
                assertEquals("rxe1", p.device(), "the client is bound to 10.20.0.2, so rxe1");
                assertEquals(1, p.port());
                assertEquals(CLIENT_IP, p.source().orElseThrow().getAddress());
                assertEquals(new InetSocketAddress(SERVER_IP, port), p.destination().orElseThrow());
                assertEquals(Gid.fromAddress(CLIENT_IP), p.sgid());
                assertEquals(Gid.fromAddress(SERVER_IP), p.dgid());
                assertEquals(Optional.of("veth1"), p.route().sourceNetdev());
                assertEquals(Optional.of("veth1"), p.route().egressNetdev(), p.route().toString());
                assertTrue(p.route().consistent(), p.route().toString());
                assertEquals(QpState.RTS, c.queuePair().state());
                assertSame(clientConns.contexts().getFirst(), c.context(), "one borrowed context per device");
                ByteBuffer fromServer = ByteBuffer.wrap(c.peerPrivateData());
                Engine.Resources serverRes = serverEngine.only();
                long slotAddress = fromServer.getLong();
                assertEquals(serverRes.mr().rkey(), fromServer.getInt(), "the server's rkey, from its accept private data");
                assertEquals(0, (slotAddress - serverRes.mr().address()) % SLOT, "a slot of the server's buffer");
            }
            for (CmConnection c : serverConns.list()) {
                System.out.println("server " + c);
                CmPath p = c.path();
                assertEquals("rxe0", p.device());
                assertEquals(new InetSocketAddress(SERVER_IP, port), p.source().orElseThrow());
                assertEquals(CLIENT_IP, p.destination().orElseThrow().getAddress());
                assertEquals(Optional.of("veth0"), p.route().egressNetdev(), p.route().toString());
                assertTrue(p.route().consistent(), p.route().toString());
                ByteBuffer fromClient = ByteBuffer.wrap(c.peerPrivateData());
                assertEquals(clientEngine.only().mr().address() + (long) SLOT * fromClientIndex(c, clientConns),
                        fromClient.getLong(), "the client's slot address, from its connect private data");
                assertEquals(clientEngine.only().mr().rkey(), fromClient.getInt());
            }
            assertNotEquals(before, withoutCtx(LabDevices.resourceCounts()), "rdma resource sees the objects");

            // Pair the connections by the client's port: server connection i may be any client's.
            Map<Integer, CmConnection> serverByClientPort = new HashMap<>();
            for (CmConnection s : serverConns.list()) {
                serverByClientPort.put(s.path().destination().orElseThrow().getPort(), s);
            }
            Engine.Resources cr = clientEngine.only();
            Engine.Resources sr = serverEngine.only();
            try (Arena arena = Arena.ofConfined()) {
                for (CmConnection c : clientConns.list()) {
                    CmConnection s = serverByClientPort.get(c.path().source().orElseThrow().getPort());
                    int i = c.index();
                    int j = s.index();
                    writeAndVerify(arena, c, cr, i, sr, i, (byte) (0x10 + i));   // client QP -> server slot i
                    writeAndVerify(arena, s, sr, j, cr, j, (byte) (0x60 + j));   // server QP -> client slot j
                }
            }
        } finally {
            threads.shutdown();
            if (clientConns != null) {
                clientConns.close();
            }
            server.close();
        }
        assertTrue(clientEngine.only().pd().isClosed() && clientEngine.only().mr().isClosed()
                && serverEngine.only().cq().isClosed(), "the engine's resources closed with the borrowed contexts");
        System.out.printf("CmLabConnectTest: %d connection(s) done in %d ms%n", count, (System.nanoTime() - t0) / 1_000_000);
        assertEquals(before, withoutCtx(LabDevices.resourceCounts()),
                "nothing left in `rdma resource` after close (ctx aside: librdmacm keeps its device context open)");
    }

    /** The index of the client connection that has the server connection's peer port. */
    private static int fromClientIndex(CmConnection server, CmConnections clients) {
        int port = server.path().destination().orElseThrow().getPort();
        return clients.list().stream().filter(c -> c.path().source().orElseThrow().getPort() == port)
                .findFirst().orElseThrow().index();
    }

    /** One signaled RDMA WRITE of a pattern from {@code from}'s slot to the peer's slot, then compare bytes. */
    private static void writeAndVerify(Arena arena, CmConnection from, Engine.Resources local, int localSlot,
                                       Engine.Resources remote, int remoteSlot, byte seed) {
        byte[] pattern = new byte[SLOT];
        for (int k = 0; k < SLOT; k++) {
            pattern[k] = (byte) (seed + k * 31);
        }
        MemorySegment src = local.mr().memory().asSlice((long) localSlot * SLOT, SLOT);
        MemorySegment.copy(pattern, 0, src, ValueLayout.JAVA_BYTE, 0, SLOT);
        WorkRequestList write = new WorkRequestList(arena, 1, src.address(), SLOT, local.mr().lkey(),
                remote.mr().address() + (long) remoteSlot * SLOT, remote.mr().rkey(), false);
        write.setSignaled(0, true);
        write.setWrId(0, 1000 + from.index());
        assertEquals(0, write.post(from.queuePair().postSendFunction(), from.queuePair().handle()), "post_send");
        CompletionBatch wc = new CompletionBatch(arena, 4);
        long deadline = System.nanoTime() + 10_000_000_000L;
        int n = 0;
        while (n == 0 && System.nanoTime() < deadline) {
            n = wc.poll(local.cq().pollFunction(), local.cq().handle());
        }
        assertEquals(1, n, "one completion within 10 s");
        assertEquals(0, wc.status(0), () -> CompletionStatus.describe(wc.status(0)));
        assertEquals(1000 + from.index(), wc.wrId(0));
        assertEquals(from.queuePair().qpn(), wc.qpNumber(0));
        byte[] landed = remote.mr().memory().asSlice((long) remoteSlot * SLOT, SLOT).toArray(ValueLayout.JAVA_BYTE);
        assertArrayEquals(pattern, landed, "the written bytes are in the peer's registered memory");
    }

    /** The counts without {@code ctx}: librdmacm opens each device once and keeps it for the process. */
    static Map<String, String> withoutCtx(Map<String, String> counts) {
        Map<String, String> out = new LinkedHashMap<>();
        counts.forEach((dev, text) -> out.put(dev, text.replaceAll("\\bctx \\d+\\s*", "").strip()));
        return out;
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
