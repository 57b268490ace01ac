package io.jperf.engine;

import io.jperf.cm.CmClient;
import io.jperf.cm.CmConnection;
import io.jperf.cm.CmConnections;
import io.jperf.cm.CmEventType;
import io.jperf.cm.CmException;
import io.jperf.cm.CmOptions;
import io.jperf.cm.CmPath;
import io.jperf.cm.CmServer;
import io.jperf.cm.QpResources;
import io.jperf.cm.QpSetup;
import io.jperf.options.ConnectionTarget;
import io.jperf.options.TestOptions;
import io.jperf.path.GidChoice;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.Rdma;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The test QPs connected with RDMA CM ({@code -R}): the CM resolves the route, which picks the
 * device; the endpoint's buffers and CQ are built on that device when the first connection is
 * set up, and the CM creates and connects each QP on them. Reports what the CM resolved and warns
 * when it is not what the user asked for.
 *
 * <p>Lifecycle: a server accepts on a listener it owns ({@link #listen}, {@code jperf serve}) or
 * borrows ({@link #accepting}: the one-test server's listener, which took the control connection
 * first, as perftest's server does on the same port); a {@link #client} connects, trying again
 * while a perftest server has not started listening yet. {@link #establish} connects or accepts
 * {@code -q} connections and returns the endpoint; {@link #close} disconnects (a perftest peer
 * waits for that) and frees everything, the endpoint included, but not a borrowed listener.
 */
final class CmLink implements AutoCloseable {
    /** perftest's client tries to connect the test QPs 10 times, 100 ms apart: its server listens only after a sync. */
    private static final int CONNECT_TRIES = 10;
    private static final Duration CONNECT_PAUSE = Duration.ofMillis(100);

    private final TestOptions options;
    private final CmServer server;
    private final boolean ownsServer;
    private final String destination;
    private CmConnections connections;
    private Endpoint endpoint;

    private CmLink(TestOptions options, CmServer server, boolean ownsServer, String destination) {
        this.options = options;
        this.server = server;
        this.ownsServer = ownsServer;
        this.destination = destination;
    }

    /** A server with a listener of its own on the options' port (the test QPs of a {@code jperf serve} test). */
    static CmLink listen(TestOptions options) throws IOException {
        ConnectionTarget target = options.target();
        InetAddress bind = target.bindSourceIp() == null ? null : InetAddress.getByName(target.bindSourceIp());
        return new CmLink(options, CmServer.listen(new InetSocketAddress(bind, target.port()), options.params().numQps()),
                true, null);
    }

    /** A server that accepts the test QPs from a listener it borrows (the one the control connection came through). */
    static CmLink accepting(TestOptions options, CmServer listener) {
        return new CmLink(options, listener, false, null);
    }

    /** @param destination the peer's RDMA address to connect to; null: the server host */
    static CmLink client(TestOptions options, String destination) {
        return new CmLink(options, null, false, destination != null ? destination : options.target().serverHost());
    }

    /** Connects or accepts the test QPs; returns the endpoint (QPs in RTS) and adds what to warn about. */
    Endpoint establish(Duration timeout, List<String> warnings) throws IOException {
        QpSetup setup = cm -> {
            if (endpoint == null) {
                endpoint = Endpoint.forRdmaCm(options, cm.context(), cm.port(), cm.path().sgid());
            } else if (endpoint.context() != cm.context()) {
                throw new TestFailedException("RDMA CM resolved connection " + cm.index() + " through "
                        + cm.path().device() + " but the first through " + endpoint.context().deviceName()
                        + ": every QP of a test must use one device (check the routes to the peer)");
            }
            return new QpResources(endpoint.protectionDomain(), endpoint.cq(), endpoint.cq(), endpoint.capabilities());
        };
        CmOptions cmOptions = CmOptions.perftest().withTos(options.params().tos());
        if (options.params().kind().verb().usesOutstandingReads()) {
            cmOptions = cmOptions.withOutstandingReads(options.params().outstandingReads() > 0 ? options.params().outstandingReads()
                    : CmOptions.DEVICE_MAXIMUM);
        }
        if (server != null) {
            connections = server.accept(options.params().numQps(), setup, cmOptions, timeout);
        } else {
            connections = connectWithRetries(setup, cmOptions, timeout);
        }
        List<io.jperf.verbs.QueuePair> qps = new ArrayList<>();
        for (CmConnection c : connections.list()) {
            qps.add(c.queuePair());
            check(c.path(), warnings);
        }
        endpoint.adoptQueuePairs(qps);
        return endpoint;
    }

    /**
     * Connects the test QPs, trying again while the server rejects them: a perftest server only listens
     * for them once both ends passed the synchronisation before it.
     */
    private CmConnections connectWithRetries(QpSetup setup, CmOptions cmOptions, Duration timeout) throws IOException {
        InetSocketAddress peer = new InetSocketAddress(InetAddress.getByName(destination), options.target().port());
        InetAddress source = bindSource(options.target());
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                return CmClient.connect(peer, source, options.params().numQps(), setup, cmOptions,
                        Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            } catch (CmException e) {
                endpoint = null;
                boolean rejected = e.event().map(ev -> ev.type() == CmEventType.REJECTED).orElse(false);
                if (!rejected || attempt >= CONNECT_TRIES || System.nanoTime() + CONNECT_PAUSE.toNanos() - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(CONNECT_PAUSE);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while connecting the test QPs");
            }
        }
    }

    /** The endpoint once {@link #establish} created it, else null. */
    Endpoint endpoint() {
        return endpoint;
    }

    /** What the CM resolved, one per connection. */
    List<CmPath> paths() {
        return connections == null ? List.of() : connections.list().stream().map(CmConnection::path).toList();
    }

    /**
     * The CM id is bound to a source address whenever one is known, so the kernel routes from it
     * (policy routing by source picks the rail): --bind_source_ip, else the address of the GID
     * that -d / -x select (it opens the target's device to find it).
     */
    private static InetAddress bindSource(ConnectionTarget target) throws IOException {
        if (target.bindSourceIp() != null) {
            return InetAddress.getByName(target.bindSourceIp());
        }
        if (target.device() == null && target.gidIndex() < 0) {
            return null;
        }
        try (Context ctx = Rdma.open(target.device())) {
            var port = ctx.queryPort(target.ibPort());
            return GidChoice.of(ctx.deviceName(), port, target.gidIndex()).require()
                    .flatMap(GidEntry::ipAddress).filter(a -> !a.isLinkLocalAddress()).orElse(null);
        }
    }

    private void check(CmPath path, List<String> warnings) {
        if (options.target().device() != null && !options.target().device().equals(path.device())) {
            warnings.add("-d " + options.target().device() + " was asked, but RDMA CM resolved the route through "
                    + path.device() + ": " + path.describe());
        } else if (!path.route().consistent()) {
            warnings.add("RDMA CM path: " + path.describe());
        }
    }

    @Override
    public void close() {
        try {
            if (connections != null) {
                connections.close();
            }
        } finally {
            if (endpoint != null) {
                endpoint.close();
            }
            if (server != null && ownsServer) {
                server.close();
            }
        }
    }
}
