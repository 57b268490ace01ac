package io.jperf.engine;

import io.jperf.cm.CmControlTransport;
import io.jperf.cm.CmEventType;
import io.jperf.cm.CmException;
import io.jperf.cm.CmServer;
import io.jperf.options.TestOptions;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ControlChannel.ControlListener;
import io.jperf.wire.PerftestVersion;
import io.jperf.wire.ProtocolException;
import io.jperf.wire.Role;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * How the two ends of a one-test run meet, and which transport carries their control exchange.
 * perftest has two that cannot talk to each other: TCP (the default) and, with {@code -R}, an RDMA CM
 * control QP. jperf speaks both, so that a peer started in the other mode is named at once, with its
 * version, instead of both ends waiting for their timeouts:
 * <ul>
 *   <li>A server listens on its port with TCP and, where RDMA CM is available, with RDMA CM too, and
 *       takes the first client of either kind ({@link #accept}). A perftest client in the other mode is
 *       refused after the version exchange, with a message naming it; a jperf client runs (a parameter
 *       check then tells both ends whether their {@code -R} agree).</li>
 *   <li>A client connects with its own mode's transport ({@link #connect}). When nothing answers it,
 *       it tries the other transport once in a while: a perftest server found there is named (and left,
 *       so it stops too); a jperf server found there is talked to. With {@code -R} this is how a jperf
 *       client reaches {@code jperf serve}, which speaks TCP only.</li>
 * </ul>
 *
 * <p>Lifecycle: a server's rendezvous is {@link #listen}ed before anything else, so a client started
 * right after finds the port open, and {@link #close}d after the test: its RDMA CM listener also
 * accepts the test QPs. Threading: one thread.
 */
final class Rendezvous implements AutoCloseable {
    private static final Duration SLICE = Duration.ofMillis(100);
    /** How long a client tries its own transport before looking at the other one. */
    private static final Duration OTHER_MODE_AFTER = Duration.ofMillis(1500);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final TestOptions options;
    private final ControlListener tcp;
    private final CmServer cm;
    private final int port;

    private Rendezvous(TestOptions options, ControlListener tcp, CmServer cm, int port) {
        this.options = options;
        this.tcp = tcp;
        this.cm = cm;
        this.port = port;
    }

    /**
     * Listens on the options' port (or {@code port} when it is given, e.g. 0 for loopback tests, which
     * listen with TCP only): TCP on {@code bind}, RDMA CM on {@code bind} too where it is available. With
     * {@code -R} RDMA CM is required; without it, a failing RDMA CM listener is left out.
     */
    static Rendezvous listen(TestOptions options, InetAddress bind, int port) throws IOException {
        CmServer cm = null;
        if (options.params().rdmaCm()) {
            cm = CmServer.listen(new InetSocketAddress(bind, port), options.params().numQps() + 1);
        } else if (port != 0) {
            cm = optionalCmListener(bind, port);
        }
        ControlListener tcp;
        try {
            tcp = ControlChannel.listen(port, bind);
        } catch (IOException e) {
            if (cm != null) {
                cm.close();
            }
            throw e;
        }
        return new Rendezvous(options, tcp, cm, tcp.localPort());
    }

    private static CmServer optionalCmListener(InetAddress bind, int port) {
        try {
            return CmServer.listen(new InetSocketAddress(bind, port), 1);
        } catch (RuntimeException e) {
            // no RDMA CM here (no rdma_ucm, no device) or the port is taken: nobody can meet us in -R mode anyway
            return null;
        }
    }

    /** The TCP port listened on (the options' port, or the one the system chose for port 0). */
    int port() {
        return port;
    }

    /** The RDMA CM listener, which with {@code -R} also accepts the test QPs; null without one. */
    CmServer cmListener() {
        return cm;
    }

    /**
     * Waits up to {@code timeout} for a client on either transport.
     *
     * @throws ProtocolException when no client came in time
     */
    ControlChannel accept(Duration timeout) throws IOException {
        if (cm == null) {
            return tcp.accept(timeout);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (cm.awaitRequest(SLICE)) {
                return ControlChannel.over(CmControlTransport.accept(cm, timeout), Role.SERVER, timeout);
            }
            ControlChannel channel = tcp.poll(SLICE);
            if (channel != null) {
                channel.setReadTimeout(timeout);
                return channel;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new ProtocolException("no client connected to port " + port + " (TCP or RDMA CM) within "
                        + ControlChannel.seconds(timeout));
            }
        }
    }

    /**
     * Connects to the options' server with this end's mode, and names a server found in the other mode.
     * The returned channel has exchanged versions when it went through the other transport
     * ({@link ControlChannel#remoteVersion()} is then set).
     *
     * @throws TestFailedException when the server is perftest in the other mode
     * @throws ProtocolException when no server answered in time
     */
    static ControlChannel connect(TestOptions options, InetAddress bind, Duration timeout) throws IOException {
        String host = options.target().serverHost();
        InetSocketAddress server = new InetSocketAddress(host, options.target().port());
        if (server.isUnresolved()) {
            throw new java.net.UnknownHostException("cannot resolve server host '" + host + "'");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException lastTcp = null;
        RuntimeException lastCm = null;
        while (true) {
            Duration left = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
            Duration attempt = left.compareTo(OTHER_MODE_AFTER) < 0 ? left : OTHER_MODE_AFTER;
            if (options.params().rdmaCm()) {
                try {
                    return ControlChannel.over(CmControlTransport.connect(server, bind, timeout), Role.CLIENT, timeout);
                } catch (CmException e) {
                    if (!rejected(e)) {
                        throw e;
                    }
                    lastCm = e;
                }
                Optional<ControlChannel> tcpPeer = probeTcp(host, options.target().port(), bind, attempt, timeout);
                if (tcpPeer.isPresent()) {
                    return otherMode(tcpPeer.get(), options, "TCP (without -R)", "run both ends with -R, or both without");
                }
                pause(attempt, deadline);
            } else {
                try {
                    return ControlChannel.connect(host, options.target().port(), bind, attempt);
                } catch (ProtocolException e) {
                    lastTcp = e;
                }
                Optional<ControlChannel> cmPeer = probeCm(server, bind, timeout);
                if (cmPeer.isPresent()) {
                    return otherMode(cmPeer.get(), options, "RDMA CM (-R)", "run this client with -R too");
                }
            }
            if (System.nanoTime() - deadline > 0) {
                String what = "no server answered on " + host + ":" + options.target().port() + " within "
                        + ControlChannel.seconds(timeout) + " (tried " + (options.params().rdmaCm() ? "RDMA CM, then TCP"
                        : "TCP, then RDMA CM") + "); is the server side running?";
                if (lastCm != null) {
                    throw new ProtocolException(what + " Last RDMA CM error: " + lastCm.getMessage(), lastCm);
                }
                throw new ProtocolException(what + (lastTcp != null ? " Last TCP error: " + lastTcp.getMessage() : ""),
                        lastTcp);
            }
        }
    }

    /** A server found on the other transport: a jperf one is talked to; a perftest one is named and left. */
    private static ControlChannel otherMode(ControlChannel channel, TestOptions options, String theirMode, String fix)
            throws IOException {
        PerftestVersion version;
        try {
            version = channel.exchangeVersion(PerftestVersion.ADVERTISED);
        } catch (IOException | RuntimeException e) {
            channel.abandon();
            throw e;
        }
        if (version.isJperf()) {
            return channel;
        }
        channel.abandon();
        throw new TestFailedException("the server at " + options.target().serverHost() + ":" + options.target().port() + " is perftest "
                + version.text() + " using " + theirMode + ", while this client uses "
                + (options.params().rdmaCm() ? "RDMA CM (-R)" : "TCP (without -R)") + ": " + fix);
    }

    private static Optional<ControlChannel> probeTcp(String host, int port, InetAddress bind, Duration wait,
                                                     Duration timeout) throws IOException {
        try {
            ControlChannel channel = ControlChannel.connect(host, port, bind, wait);
            channel.setReadTimeout(timeout);
            return Optional.of(channel);
        } catch (ProtocolException e) {
            return Optional.empty();
        }
    }

    private static Optional<ControlChannel> probeCm(InetSocketAddress server, InetAddress bind, Duration timeout)
            throws IOException {
        try {
            return Optional.of(ControlChannel.over(CmControlTransport.connect(server, bind, PROBE_TIMEOUT),
                    Role.CLIENT, timeout));
        } catch (CmException | RdmaException | RdmaUnavailableException e) {
            return Optional.empty();
        }
    }

    private static boolean rejected(CmException e) {
        return e.event().map(ev -> ev.type() == CmEventType.REJECTED || ev.type() == CmEventType.UNREACHABLE)
                .orElse(false);
    }

    private static void pause(Duration attempt, long deadline) throws InterruptedIOException {
        long nanos = Math.min(attempt.toNanos(), Math.max(0, deadline - System.nanoTime()));
        try {
            Thread.sleep(Duration.ofNanos(Math.min(nanos, SLICE.toNanos() * 2)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting");
        }
    }

    /** Stops listening on both transports (the RDMA CM listener's accepted connections close with it). */
    @Override
    public void close() throws IOException {
        try {
            tcp.close();
        } finally {
            if (cm != null) {
                cm.close();
            }
        }
    }
}
