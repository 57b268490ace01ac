package io.jperf.engine;

import io.jperf.options.TestOptions;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ControlChannel.ControlListener;
import io.jperf.wire.PerftestHandshake;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The embeddable test of any {@link io.jperf.options.TestKind}: RDMA WRITE, READ, SEND or atomic bandwidth or
 * latency ({@code ib_write_bw}, {@code ib_read_lat}, {@code ib_atomic_bw}, ...) against a peer that is jperf or perftest (6.06 to 6.29), over perftest's
 * out-of-band exchange: TCP, or with {@code -R} (the options' {@code rdmaCm}) its RDMA CM control QP.
 *
 * <pre>{@code
 * TestOptions options = TestOptions.builder(TestKind.WRITE_BW)
 *         .device("mlx5_0").size("64K").serverHost("10.0.0.2").build();
 * PerfTestResult result = PerfTest.of(options).run();
 * double mib = result.bandwidth().getFirst().average();
 * }</pre>
 *
 * Without a server host the test runs as the server and waits for one client. Every wait is
 * bounded by {@link #timeout(Duration)}; failures are {@link TestFailedException} (the test ran
 * but failed), {@code RdmaException} (a verbs call failed) or {@code RdmaUnavailableException}
 * (no such device, port down, no GID). A {@code PerfTest} is a reusable description: each
 * {@link #run()} opens and frees its own resources; runs are independent and may be concurrent.
 */
public final class PerfTest {
    /** The default bound on connecting, accepting and every control-channel read. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** The default warm-up of the data path before the first measured size. */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(1);

    private final TestOptions options;
    private final RunSettings settings;

    private PerfTest(TestOptions options, RunSettings settings) {
        this.options = Objects.requireNonNull(options, "options");
        this.settings = settings;
    }

    public static PerfTest of(TestOptions options) {
        return new PerfTest(options, new RunSettings(DEFAULT_TIMEOUT, TestListener.NONE,
                PerftestHandshake.BW_SETTLE_DELAY, false, DEFAULT_WARMUP, -1, null, java.util.Optional.empty(),
                new StopSignal()));
    }

    /** Bounds connecting, accepting, every control read, and how long the data path may stall. */
    public PerfTest timeout(Duration value) {
        return new PerfTest(options, settings.withTimeout(value));
    }

    public PerfTest listener(TestListener value) {
        return new PerfTest(options, settings.withListener(value));
    }

    /** perftest's bandwidth tests pause 1 s after connecting; two jperf ends may skip it. */
    public PerfTest settleDelay(Duration value) {
        return new PerfTest(options, settings.withSettleDelay(value));
    }

    /** The fabric has a lossless / ECN class for RDMA: flag traffic class 0 and non-ECN-capable marking (F5). */
    public PerfTest qosExpected(boolean value) {
        return new PerfTest(options, settings.withQosExpected(value));
    }

    /**
     * Warms the data path up before measuring, so the JIT has compiled it (default 1 s; zero turns
     * it off). Bandwidth: writes for this long before the first size. Latency: unmeasured round
     * trips, only with a jperf peer (perftest counts every round).
     */
    public PerfTest warmup(Duration value) {
        return new PerfTest(options, settings.withWarmup(value));
    }

    /**
     * Pins the thread that runs the test (the caller of {@link #run()}) to {@code cpu} for the run,
     * so the busy-polling loop keeps its CPU, and places the JVM's compiler, GC and service threads
     * away from it (with it on a machine with fewer than three allowed CPUs; see
     * {@code ThreadPlacement}). Every thread gets its CPUs back when the run ends. -1 (the default)
     * leaves placement to the kernel.
     */
    public PerfTest cpu(int cpu) {
        return new PerfTest(options, settings.withCpu(cpu));
    }

    /**
     * For a client whose peer runs {@code jperf serve}: asks the peer to run the test on its device
     * and GID that carry {@code address} (one of the peer's RDMA addresses, e.g. a second rail),
     * while the control connection goes to the server host. With {@code -R} the client's RDMA CM
     * connects to this address. Null (the default): the peer uses the address the control
     * connection reached. Another kind of peer ignores it, with a warning.
     */
    public PerfTest servePeerAddress(String address) {
        return new PerfTest(options, settings.withServePeerAddress(address));
    }

    /**
     * For a client whose peer runs {@code jperf serve} with a shared secret: the secret this client
     * proves it knows (it never goes on the wire). Null (the default): none.
     */
    public PerfTest authSecret(AuthSecret secret) {
        return new PerfTest(options, settings.withAuthSecret(secret));
    }

    /**
     * What ends a {@code --run_infinitely} run (perftest's: until the user stops it): the caller requests it,
     * e.g. from a SIGINT handler, and the run stops within about a millisecond, ends its data path cleanly
     * and reports the whole run. A run of iterations or {@code -D} ignores it. Default: a signal nobody
     * requests.
     */
    public PerfTest stopSignal(StopSignal stop) {
        return new PerfTest(options, settings.withStop(stop));
    }

    /**
     * Starts a {@code jperf serve} server with these settings and the default {@link ServeLimits}:
     * it listens on the options' port and runs one test per jperf client, adopting each client's
     * parameters (see {@link JperfServer}).
     *
     * @throws ListenFailedException when it cannot listen there
     */
    public JperfServer serveClients() {
        return serveClients(ServeLimits.DEFAULTS);
    }

    /** As {@link #serveClients()}, within {@code limits}. */
    public JperfServer serveClients(ServeLimits limits) {
        return JperfServer.listen(options, settings, limits);
    }

    public TestOptions options() {
        return options;
    }

    /** Runs the test as client (a server host is set) or server, and returns its result. */
    public PerfTestResult run() {
        if (options.target().loopback()) {
            throw new IllegalStateException("a loopback test has two ends: use runLoopback");
        }
        try {
            if (options.params().rdmaCm()) {
                return runWithRdmaCm();
            }
            if (options.isServer()) {
                // listen before touching the device, so a client started right after us finds the port open
                try (Rendezvous rendezvous = Rendezvous.listen(options, bindAddress(), options.target().port());
                     Endpoint endpoint = Endpoint.open(options)) {
                    return new TestSession(options, endpoint, null, rendezvous.accept(settings.timeout()), settings).run();
                }
            }
            try (Endpoint endpoint = Endpoint.open(options)) {
                ControlChannel channel = Rendezvous.connect(options, bindAddress(), settings.timeout());
                return new TestSession(options, endpoint, null, channel, settings).run();
            }
        } catch (IOException e) {
            throw new TestFailedException(e.getMessage(), e);
        }
    }

    /**
     * -R: the control exchange runs over an RDMA CM QP as perftest's does, and the test QPs are connected by
     * RDMA CM on the same port (a jperf peer that speaks TCP, such as {@code jperf serve}, gets the control
     * exchange over TCP instead). The server's RDMA CM listener takes the control connection and the test QPs.
     */
    private PerfTestResult runWithRdmaCm() throws IOException {
        if (options.isServer()) {
            try (Rendezvous rendezvous = Rendezvous.listen(options, bindAddress(), options.target().port())) {
                ControlChannel channel = rendezvous.accept(settings.timeout());
                try (CmLink cm = CmLink.accepting(options, rendezvous.cmListener())) {
                    return new TestSession(options, null, cm, channel, settings).run();
                }
            }
        }
        try (CmLink cm = CmLink.client(options, settings.servePeerAddress())) {
            ControlChannel channel = Rendezvous.connect(options, bindAddress(), settings.timeout());
            return new TestSession(options, null, cm, channel, settings).run();
        }
    }

    private PerfTestResult serve(Endpoint endpoint, ControlListener listening) throws IOException {
        ControlChannel channel = listening.accept(settings.timeout());
        return new TestSession(options, endpoint, null, channel, settings).run();
    }

    /**
     * Runs both ends in this process: a server on {@code serverDevice} (null = the same device as
     * the client) in a second thread, and the client, connected over loopback TCP.
     *
     * @return the client's result; the server's failure, if any, is attached to the client's
     */
    public PerfTestResult runLoopback(String serverDevice) {
        TestOptions serverOptions = options.toBuilder().loopback(false)
                .device(serverDevice != null ? serverDevice : options.target().device()).build();
        if (options.params().rdmaCm()) {
            return runLoopbackWithRdmaCm(serverOptions);
        }
        try (ControlListener listening = ControlChannel.listen(0, InetAddress.getLoopbackAddress())) {
            TestOptions clientOptions = options.toBuilder().loopback(false)
                    .serverHost(InetAddress.getLoopbackAddress().getHostAddress()).port(listening.localPort()).build();
            PerfTest server = new PerfTest(serverOptions, settings.withListener(TestListener.NONE));
            return bothEnds(() -> {
                try (Endpoint endpoint = Endpoint.open(serverOptions)) {
                    return server.serve(endpoint, listening);
                }
            }, clientOptions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** -R in one process: RDMA CM needs the server's RDMA address, so both ends meet on its GID's IP. */
    private PerfTestResult runLoopbackWithRdmaCm(TestOptions serverOptions) {
        String serverIp;
        try (io.jperf.verbs.Context ctx = io.jperf.verbs.Rdma.open(serverOptions.target().device())) {
            serverIp = io.jperf.verbs.GidSelection.perftestDefault(ctx.queryPort(serverOptions.target().ibPort()))
                    .flatMap(io.jperf.verbs.GidEntry::ipAddress).map(InetAddress::getHostAddress)
                    .orElseThrow(() -> new io.jperf.verbs.RdmaUnavailableException("-R --loopback needs an IP address"
                            + " on the server device's netdev (RDMA CM resolves routes between IP addresses)"));
        }
        PerfTest server = new PerfTest(serverOptions, settings.withListener(TestListener.NONE));
        return bothEnds(server::run, options.toBuilder().loopback(false).serverHost(serverIp).build());
    }

    /** Runs the server end in a second thread and the client end here; the client's result, or both failures. */
    private PerfTestResult bothEnds(java.util.concurrent.Callable<PerfTestResult> serverEnd, TestOptions clientOptions) {
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jperf-loopback-server");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<PerfTestResult> serverRun = executor.submit(serverEnd);
            PerfTestResult clientResult;
            try {
                clientResult = new PerfTest(clientOptions, settings).run();
            } catch (RuntimeException e) {
                serverFailure(serverRun).ifPresent(e::addSuppressed);
                throw e;
            }
            serverFailure(serverRun).ifPresent(f -> {
                throw new TestFailedException("the loopback server failed: " + f.getMessage(), f);
            });
            return clientResult;
        } finally {
            executor.shutdownNow();
        }
    }

    private java.util.Optional<Throwable> serverFailure(Future<PerfTestResult> serverRun) {
        try {
            serverRun.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
            return java.util.Optional.empty();
        } catch (ExecutionException e) {
            return java.util.Optional.of(e.getCause());
        } catch (TimeoutException e) {
            serverRun.cancel(true);
            return java.util.Optional.of(new TestFailedException("the loopback server did not finish within "
                    + settings.timeout().toSeconds() + " s"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.of(e);
        }
    }

    private InetAddress bindAddress() throws IOException {
        return options.target().bindSourceIp() == null ? null : InetAddress.getByName(options.target().bindSourceIp());
    }
}
