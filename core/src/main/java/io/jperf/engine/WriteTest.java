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
 * The embeddable write test: RDMA WRITE bandwidth ({@code ib_write_bw}) or latency
 * ({@code ib_write_lat}) against a peer that is jperf or perftest, over perftest's out-of-band
 * TCP exchange.
 *
 * <pre>{@code
 * TestOptions options = TestOptions.builder(TestKind.WRITE_BW)
 *         .device("mlx5_0").size("64K").serverHost("10.0.0.2").build();
 * WriteTestResult result = WriteTest.of(options).run();
 * double mib = result.bandwidth().getFirst().average();
 * }</pre>
 *
 * Without a server host the test runs as the server and waits for one client. Every wait is
 * bounded by {@link #timeout(Duration)}; failures are {@link TestFailedException} (the test ran
 * but failed), {@code RdmaException} (a verbs call failed) or {@code RdmaUnavailableException}
 * (no such device, port down, no GID). A {@code WriteTest} is a reusable description: each
 * {@link #run()} opens and frees its own resources; runs are independent and may be concurrent.
 */
public final class WriteTest {
    /** The default bound on connecting, accepting and every control-channel read. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final TestOptions options;
    private final Duration timeout;
    private final TestListener listener;
    private final Duration settleDelay;
    private final boolean qosExpected;

    private WriteTest(TestOptions options, Duration timeout, TestListener listener, Duration settleDelay,
                      boolean qosExpected) {
        this.qosExpected = qosExpected;
        this.options = Objects.requireNonNull(options, "options");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.settleDelay = Objects.requireNonNull(settleDelay, "settleDelay");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive");
        }
    }

    public static WriteTest of(TestOptions options) {
        return new WriteTest(options, DEFAULT_TIMEOUT, TestListener.NONE, PerftestHandshake.BW_SETTLE_DELAY, false);
    }

    /** Bounds connecting, accepting, every control read, and how long the data path may stall. */
    public WriteTest timeout(Duration value) {
        return new WriteTest(options, value, listener, settleDelay, qosExpected);
    }

    public WriteTest listener(TestListener value) {
        return new WriteTest(options, timeout, value, settleDelay, qosExpected);
    }

    /** perftest's bandwidth tests pause 1 s after connecting; two jperf ends may skip it. */
    public WriteTest settleDelay(Duration value) {
        return new WriteTest(options, timeout, listener, value, qosExpected);
    }

    /** The fabric has a lossless / ECN class for RDMA: flag traffic class 0 and non-ECN-capable marking (F5). */
    public WriteTest qosExpected(boolean value) {
        return new WriteTest(options, timeout, listener, settleDelay, value);
    }

    public TestOptions options() {
        return options;
    }

    /** Runs the test as client (a server host is set) or server, and returns its result. */
    public WriteTestResult run() {
        if (options.loopback()) {
            throw new IllegalStateException("a loopback test has two ends: use runLoopback");
        }
        try {
            if (options.rdmaCm()) {
                return runWithRdmaCm();
            }
            if (options.isServer()) {
                // listen before touching the device, so a client started right after us finds the port open
                try (ControlListener listening = ControlChannel.listen(options.port(), bindAddress());
                     Endpoint endpoint = Endpoint.open(options)) {
                    return serve(endpoint, listening);
                }
            }
            try (Endpoint endpoint = Endpoint.open(options)) {
                return connect(endpoint);
            }
        } catch (IOException e) {
            throw new TestFailedException(e.getMessage(), e);
        }
    }

    /** -R: the TCP control exchange as usual, the test QPs connected by RDMA CM on the same port number. */
    private WriteTestResult runWithRdmaCm() throws IOException {
        if (options.isServer()) {
            try (CmLink cm = CmLink.listen(options);
                 ControlListener listening = ControlChannel.listen(options.port(), bindAddress())) {
                ControlChannel channel = listening.accept(timeout);
                return new TestSession(options, null, cm, channel, listener, timeout, settleDelay, qosExpected).run();
            }
        }
        try (CmLink cm = CmLink.client(options)) {
            ControlChannel channel;
            try {
                channel = ControlChannel.connect(options.serverHost(), options.port(), bindAddress(), timeout);
            } catch (IOException e) {
                throw new TestFailedException(e.getMessage() + " (with -R jperf still exchanges test parameters over"
                        + " TCP on the same port: the server must be jperf with -R too)", e);
            }
            return new TestSession(options, null, cm, channel, listener, timeout, settleDelay, qosExpected).run();
        }
    }

    private WriteTestResult connect(Endpoint endpoint) throws IOException {
        ControlChannel channel = ControlChannel.connect(options.serverHost(), options.port(), bindAddress(), timeout);
        return new TestSession(options, endpoint, null, channel, listener, timeout, settleDelay, qosExpected).run();
    }

    private WriteTestResult serve(Endpoint endpoint, ControlListener listening) throws IOException {
        ControlChannel channel = listening.accept(timeout);
        return new TestSession(options, endpoint, null, channel, listener, timeout, settleDelay, qosExpected).run();
    }

    /**
     * Runs both ends in this process: a server on {@code serverDevice} (null = the same device as
     * the client) in a second thread, and the client, connected over loopback TCP.
     *
     * @return the client's result; the server's failure, if any, is attached to the client's
     */
    public WriteTestResult runLoopback(String serverDevice) {
        TestOptions serverOptions = options.toBuilder().loopback(false)
                .device(serverDevice != null ? serverDevice : options.device()).build();
        if (options.rdmaCm()) {
            return runLoopbackWithRdmaCm(serverOptions);
        }
        try (ControlListener listening = ControlChannel.listen(0, InetAddress.getLoopbackAddress())) {
            TestOptions clientOptions = options.toBuilder().loopback(false)
                    .serverHost(InetAddress.getLoopbackAddress().getHostAddress()).port(listening.localPort()).build();
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "jperf-loopback-server");
                t.setDaemon(true);
                return t;
            });
            try {
                WriteTest server = new WriteTest(serverOptions, timeout, TestListener.NONE, settleDelay, qosExpected);
                Future<WriteTestResult> serverRun = executor.submit(() -> {
                    try (Endpoint endpoint = Endpoint.open(serverOptions)) {
                        return server.serve(endpoint, listening);
                    }
                });
                WriteTestResult clientResult;
                try {
                    clientResult = new WriteTest(clientOptions, timeout, listener, settleDelay, qosExpected).run();
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** -R in one process: RDMA CM needs the server's RDMA address, so both ends meet on its GID's IP. */
    private WriteTestResult runLoopbackWithRdmaCm(TestOptions serverOptions) {
        String serverIp;
        try (io.jperf.verbs.Context ctx = io.jperf.verbs.Rdma.open(serverOptions.device())) {
            serverIp = io.jperf.verbs.GidSelection.perftestDefault(ctx.queryPort(serverOptions.ibPort()))
                    .flatMap(io.jperf.verbs.GidEntry::ipAddress).map(InetAddress::getHostAddress)
                    .orElseThrow(() -> new io.jperf.verbs.RdmaUnavailableException("-R --loopback needs an IP address"
                            + " on the server device's netdev (RDMA CM resolves routes between IP addresses)"));
        }
        TestOptions clientOptions = options.toBuilder().loopback(false).serverHost(serverIp).build();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jperf-loopback-server");
            t.setDaemon(true);
            return t;
        });
        try {
            WriteTest server = new WriteTest(serverOptions, timeout, TestListener.NONE, settleDelay, qosExpected);
            Future<WriteTestResult> serverRun = executor.submit(server::run);
            WriteTestResult clientResult;
            try {
                clientResult = new WriteTest(clientOptions, timeout, listener, settleDelay, qosExpected).run();
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

    private java.util.Optional<Throwable> serverFailure(Future<WriteTestResult> serverRun) {
        try {
            serverRun.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return java.util.Optional.empty();
        } catch (ExecutionException e) {
            return java.util.Optional.of(e.getCause());
        } catch (TimeoutException e) {
            serverRun.cancel(true);
            return java.util.Optional.of(new TestFailedException("the loopback server did not finish within "
                    + timeout.toSeconds() + " s"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.of(e);
        }
    }

    private InetAddress bindAddress() throws IOException {
        return options.bindSourceIp() == null ? null : InetAddress.getByName(options.bindSourceIp());
    }
}
