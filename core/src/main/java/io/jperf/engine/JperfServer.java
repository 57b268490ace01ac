package io.jperf.engine;

import io.jperf.options.OptionsException;
import io.jperf.options.TestOptions;
import io.jperf.path.PathProbe;
import io.jperf.path.PathRecord;
import io.jperf.path.TrafficClass;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidLocation;
import io.jperf.verbs.Rdma;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ControlChannel.ControlListener;
import io.jperf.wire.ProtocolException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code jperf serve}: a server that stays up and runs one test after another, each the way a
 * jperf client asks for it. The client sends its test parameters in the jperf extension of the
 * control exchange, and names the server address the test should use; the server runs the test
 * on the device, port and GID that carry that address (by default the address the control
 * connection reached, else the server's own {@code -d}/{@code -x}). A client can therefore sweep
 * rails, GIDs, {@code -R} and traffic classes against one running server. perftest clients are
 * turned away with a message: they do not send their parameters.
 *
 * <p>Lifecycle: {@link WriteTest#serveClients()} listens; each {@link #serveNext} serves one client
 * (its resources are freed when it ends, whatever happened); {@link #close} stops listening. A
 * failed test does not stop the server. Threading: one thread serves at a time.
 */
public final class JperfServer implements AutoCloseable {
    private final TestOptions base;
    private final RunSettings settings;
    private final ControlListener listening;

    private JperfServer(TestOptions base, RunSettings settings, ControlListener listening) {
        this.base = base;
        this.settings = settings;
        this.listening = listening;
    }

    static JperfServer listen(TestOptions base, RunSettings settings) throws IOException {
        if (!base.isServer()) {
            throw new IllegalArgumentException("a serving test has no server host (got " + base.serverHost() + ")");
        }
        InetAddress bind = base.bindSourceIp() == null ? null : InetAddress.getByName(base.bindSourceIp());
        return new JperfServer(base, settings, ControlChannel.listen(base.port(), bind));
    }

    /** The TCP port clients connect to. */
    public int port() {
        return listening.localPort();
    }

    /**
     * One served client.
     *
     * @param client  the client's control address
     * @param options the options the test ran with on this end (device, GID and the client's parameters)
     * @param result  the result, when the test ran
     * @param failure why it did not, otherwise
     */
    public record Served(InetAddress client, Optional<TestOptions> options, Optional<WriteTestResult> result,
                         Optional<RuntimeException> failure) {
        public Served {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(options, "options");
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(failure, "failure");
        }
    }

    /**
     * Waits up to {@code acceptTimeout} for a client and runs its test (bounded by the test's
     * timeout). Test failures are returned, not thrown.
     *
     * @return the served client, or empty when none came in time
     * @throws IOException when listening itself fails
     */
    public Optional<Served> serveNext(Duration acceptTimeout) throws IOException {
        ControlChannel channel;
        try {
            channel = listening.accept(acceptTimeout);
        } catch (ProtocolException e) {
            if (e.getCause() instanceof SocketTimeoutException) {
                return Optional.empty();
            }
            throw e;
        }
        InetAddress client = channel.remoteAddress();
        Opened opened = new Opened();
        try (channel; opened) {
            WriteTestResult result = TestSession.served(base, channel, settings, opened::open).run();
            return Optional.of(new Served(client, Optional.ofNullable(opened.options), Optional.of(result),
                    Optional.empty()));
        } catch (IOException e) {
            return Optional.of(failed(client, opened, new TestFailedException(e.getMessage(), e)));
        } catch (RuntimeException e) {
            return Optional.of(failed(client, opened, e));
        }
    }

    private static Served failed(InetAddress client, Opened opened, RuntimeException e) {
        return new Served(client, Optional.ofNullable(opened.options), Optional.empty(), Optional.of(e));
    }

    @Override
    public void close() throws IOException {
        listening.close();
    }

    /** What one served session opened; closed when the session ends. */
    private final class Opened implements AutoCloseable {
        private TestOptions options;
        private Endpoint endpoint;
        private CmLink cm;

        TestSession.Opened open(Map<String, String> request, ControlChannel channel) {
            TestOptions.Builder builder;
            try {
                builder = ServeRequest.apply(request, base);
            } catch (OptionsException e) {
                throw new ServeRefusedException("the client's request is not valid: " + e.getMessage(), e, null);
            }
            Optional<String> asked = ServeRequest.address(request);
            InetAddress target = asked.map(JperfServer::address).orElse(channel.localAddress());
            Optional<GidLocation> location = locate(target);
            if (location.isPresent()) {
                builder.device(location.get().device().name()).ibPort(location.get().port().number())
                        .gidIndex(location.get().gid().index());
            } else if (asked.isPresent()) {
                throw new ServeRefusedException("no RDMA device of the server has a GID with " + asked.get()
                        + " (GIDs with an IP here: " + describeGids() + "); check that the address is on the"
                        + " RoCE netdev (`ip -br addr`) and that the port is up (`jperf devices -v`)", null, null);
            } else {
                builder.device(base.device()).gidIndex(base.gidIndex());
            }
            if (location.isPresent()) {
                builder.bindSourceIp(target.getHostAddress());
            }
            try {
                options = builder.build();
            } catch (OptionsException e) {
                throw new ServeRefusedException("the client's request is not valid: " + e.getMessage(), e, null);
            }
            try {
                if (options.rdmaCm()) {
                    cm = CmLink.listen(options);
                } else {
                    endpoint = Endpoint.open(options);
                }
            } catch (IOException | RuntimeException e) {
                throw new ServeRefusedException(e.getMessage(), e, probe(location, channel.remoteAddress()));
            }
            return new TestSession.Opened(options, endpoint, cm);
        }

        /** This end's path record for the client's verdicts, when the device could not be used; null if unknown. */
        private PathRecord probe(Optional<GidLocation> location, InetAddress client) {
            if (location.isEmpty()) {
                return null;
            }
            GidLocation l = location.get();
            try (PathProbe probe = PathProbe.live()) {
                return probe.probe(l.device(), l.port(), l.gid(), client, new TrafficClass(options.trafficClass()));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        @Override
        public void close() {
            try {
                if (cm != null) {
                    cm.close();
                }
            } finally {
                if (endpoint != null) {
                    endpoint.close();
                }
            }
        }
    }

    private static Optional<GidLocation> locate(InetAddress target) {
        if (target.isAnyLocalAddress() || target.isLoopbackAddress()) {
            return Optional.empty();
        }
        return GidLocation.find(Rdma.devices(), target);
    }

    private static String describeGids() {
        List<DeviceInfo> devices = Rdma.devices();
        String list = devices.stream().flatMap(d -> d.ports().stream().flatMap(p -> p.gids().stream()
                        .filter(g -> g.ipAddress().isPresent())
                        .map(g -> d.name() + " port " + p.number() + " GID " + g.index() + " "
                                + g.ipAddress().map(InetAddress::getHostAddress).orElse("") + " " + g.type().label())))
                .collect(Collectors.joining(", "));
        return list.isEmpty() ? "none" : list;
    }

    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new ServeRefusedException("the client asked for address '" + text + "', which does not resolve", e, null);
        }
    }
}
