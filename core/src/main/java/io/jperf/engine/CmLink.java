package io.jperf.engine;

import io.jperf.cm.CmClient;
import io.jperf.cm.CmConnection;
import io.jperf.cm.CmConnections;
import io.jperf.cm.CmOptions;
import io.jperf.cm.CmPath;
import io.jperf.cm.CmServer;
import io.jperf.cm.QpResources;
import io.jperf.cm.QpSetup;
import io.jperf.options.TestOptions;
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
 * <p>Lifecycle: a server {@link #listen}s before anything else, so a client finds the CM port
 * open; {@link #establish} connects (client) or accepts (server) {@code -q} connections and
 * returns the endpoint; {@link #close} disconnects and frees everything, the endpoint included.
 */
final class CmLink implements AutoCloseable {
    private final TestOptions options;
    private final CmServer server;
    private final String destination;
    private CmConnections connections;
    private Endpoint endpoint;

    private CmLink(TestOptions options, CmServer server, String destination) {
        this.options = options;
        this.server = server;
        this.destination = destination;
    }

    static CmLink listen(TestOptions options) throws IOException {
        InetAddress bind = options.bindSourceIp() == null ? null : InetAddress.getByName(options.bindSourceIp());
        return new CmLink(options, CmServer.listen(new InetSocketAddress(bind, options.port()), options.numQps()), null);
    }

    /** @param destination the peer's RDMA address to connect to; null: the server host */
    static CmLink client(TestOptions options, String destination) {
        return new CmLink(options, null, destination != null ? destination : options.serverHost());
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
        CmOptions cmOptions = CmOptions.perftest().withTos(options.tos());
        if (server != null) {
            connections = server.accept(options.numQps(), setup, cmOptions, timeout);
        } else {
            InetSocketAddress peer = new InetSocketAddress(InetAddress.getByName(destination), options.port());
            connections = CmClient.connect(peer, bindSource(), options.numQps(), setup, cmOptions, timeout);
        }
        List<io.jperf.verbs.QueuePair> qps = new ArrayList<>();
        for (CmConnection c : connections.list()) {
            qps.add(c.queuePair());
            check(c.path(), warnings);
        }
        endpoint.adoptQueuePairs(qps);
        return endpoint;
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
     * that -d / -x select.
     */
    private InetAddress bindSource() throws IOException {
        if (options.bindSourceIp() != null) {
            return InetAddress.getByName(options.bindSourceIp());
        }
        if (options.device() == null && options.gidIndex() < 0) {
            return null;
        }
        try (Context ctx = Rdma.open(options.device())) {
            var port = ctx.queryPort(options.ibPort());
            java.util.Optional<GidEntry> gid = options.gidIndex() >= 0 ? port.gid(options.gidIndex())
                    : io.jperf.verbs.GidSelection.perftestDefault(port);
            return gid.flatMap(GidEntry::ipAddress).filter(a -> !a.isLinkLocalAddress()).orElse(null);
        }
    }

    private void check(CmPath path, List<String> warnings) {
        if (options.device() != null && !options.device().equals(path.device())) {
            warnings.add("-d " + options.device() + " was asked, but RDMA CM resolved the route through "
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
            if (server != null) {
                server.close();
            }
        }
    }
}
