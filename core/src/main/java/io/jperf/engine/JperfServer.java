package io.jperf.engine;

import io.jperf.options.OptionsException;
import io.jperf.options.TestOptions;
import io.jperf.path.PathProbe;
import io.jperf.path.PathRecord;
import io.jperf.path.TrafficClass;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidLocation;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.Rdma;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ControlChannel.ControlListener;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.KeyMessage;
import io.jperf.wire.PerftestVersion;
import io.jperf.wire.ProtocolException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
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
 * <p>Safe to leave running among careless or hostile peers, within its {@link ServeLimits}:
 * <ul>
 * <li>with a shared secret, a client is served only after it proved it knows it ({@link ServeAuth});</li>
 * <li>a request is checked against the budget ({@link ServeBudget}) before anything is allocated, and
 * an allocation that fails anyway is a refusal, never a dead server;</li>
 * <li>each client has a deadline for the whole exchange (from connecting until its request was
 * accepted: {@value #REQUEST_SECONDS} s, or the timeout if shorter) and for the whole test (then
 * {@code timeout + maxDuration + timeout});
 * a slow or silent client is dropped at it, and a test still running is stopped (its QPs are
 * moved to the error state);</li>
 * <li>while a test runs, another client gets an immediate "busy, try again" refusal;</li>
 * <li>RDMA traffic goes only to the client's own address ({@link GidOwnership}) unless
 * {@link ServeLimits#allowGidMismatch()}; a requested address must be an IP literal (no DNS for
 * names a client sends);</li>
 * <li>text from a client is escaped before it is shown ({@link io.jperf.wire.PeerText}).</li>
 * </ul>
 *
 * <p>Lifecycle: {@link PerfTest#serveClients(ServeLimits)} listens and starts accepting; each
 * {@link #serveNext} serves one client (its resources are freed when it ends, whatever happened);
 * {@link #close} stops listening and the helper threads. A failed test does not stop the server.
 * Threading: one thread calls {@link #serveNext} at a time; a daemon thread accepts connections, two
 * answer busy refusals, one watches deadlines.
 */
public final class JperfServer implements AutoCloseable {
    /**
     * How long a client may take, from connecting, until its request was answered (at most the
     * timeout): a jperf client sends its version and request at once, so a connection that holds
     * the server longer is slow or hostile.
     */
    static final int REQUEST_SECONDS = 10;
    static final Duration REQUEST_TIME = Duration.ofSeconds(REQUEST_SECONDS);
    /** How long a client turned away as busy may take over its version and request. */
    private static final Duration BUSY_ANSWER_TIME = Duration.ofSeconds(5);
    /** Threads answering busy refusals, and connections waiting for one; more are closed at once. */
    private static final int BUSY_ANSWERERS = 2;
    private static final int BUSY_WAITING = 8;
    /**
     * How long a new connection waits for the serving thread before it is answered busy: covers the
     * previous session's clean-up (closing QPs, CQ, MR and the device takes a moment).
     */
    private static final Duration HANDOFF_WAIT = Duration.ofSeconds(1);
    private static final Duration ACCEPT_POLL = Duration.ofSeconds(1);
    /** After a deadline passed, how long the session may take to notice before it is stopped. */
    private static final long ABORT_GRACE_NANOS = Duration.ofSeconds(1).toNanos();

    private final TestOptions base;
    private final RunSettings settings;
    private final ServeLimits limits;
    private final ControlListener listening;
    private final SynchronousQueue<ControlChannel> handoff = new SynchronousQueue<>();
    private final ThreadPoolExecutor busyAnswers;
    private final ScheduledExecutorService watchdog;
    private final Thread acceptor;
    private final AtomicLong turnedAwayBusy = new AtomicLong();
    private final AtomicLong droppedAtDeadline = new AtomicLong();
    private volatile boolean closed;
    private volatile Consumer<String> events = e -> { };

    private JperfServer(TestOptions base, RunSettings settings, ServeLimits limits, ControlListener listening) {
        this.base = base;
        this.settings = settings;
        this.limits = limits;
        this.listening = listening;
        this.busyAnswers = new ThreadPoolExecutor(BUSY_ANSWERERS, BUSY_ANSWERERS, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(BUSY_WAITING), Thread.ofPlatform().name("jperf-serve-busy-", 0).daemon().factory());
        this.watchdog = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("jperf-serve-deadline").daemon().factory());
        this.acceptor = Thread.ofPlatform().name("jperf-serve-accept").daemon().unstarted(this::acceptLoop);
    }

    /**
     * Listens on the options' port (and {@code --bind_source_ip}, else every address) and starts accepting.
     *
     * @throws ListenFailedException when the port is taken or the address is not this host's
     * @throws OptionsException      when the bind address does not resolve
     */
    static JperfServer listen(TestOptions base, RunSettings settings, ServeLimits limits) {
        Objects.requireNonNull(limits, "limits");
        if (!base.isServer()) {
            throw new IllegalArgumentException("a serving test has no server host (got " + base.target().serverHost() + ")");
        }
        InetAddress bind;
        try {
            bind = base.target().bindSourceIp() == null ? null : InetAddress.getByName(base.target().bindSourceIp());
        } catch (UnknownHostException e) {
            throw new OptionsException("--bind " + base.target().bindSourceIp() + ": not an address of this host, and it does"
                    + " not resolve");
        }
        ControlListener listener;
        try {
            listener = ControlChannel.listen(base.target().port(), bind);
        } catch (IOException e) {
            boolean notOurs = e.getCause() instanceof java.net.BindException b && b.getMessage() != null
                    && b.getMessage().contains("assign requested address");
            throw new ListenFailedException(notOurs ? "cannot listen on " + base.target().bindSourceIp() + " port " + base.target().port()
                    + ": not an address of this host (`ip -br addr` lists them; --bind takes one of them)"
                    : e.getMessage(), e);
        }
        if (limits.authSecret().isPresent()) {
            ServeAuth.warmUp();
        }
        JperfServer server = new JperfServer(base, settings, limits, listener);
        server.acceptor.start();
        return server;
    }

    /** The TCP port clients connect to. */
    public int port() {
        return listening.localPort();
    }

    /** The limits this server applies to every client. */
    public ServeLimits limits() {
        return limits;
    }

    /**
     * Where to report what happens outside a served test (a client turned away as busy, a client
     * dropped at its deadline): one line each, from the helper threads. Default: nowhere.
     */
    public JperfServer onEvent(Consumer<String> sink) {
        this.events = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /** Clients turned away because a test was running. */
    public long turnedAwayBusy() {
        return turnedAwayBusy.get();
    }

    /** Clients whose exchange or test passed its deadline and were dropped. */
    public long droppedAtDeadline() {
        return droppedAtDeadline.get();
    }

    /**
     * One served client.
     *
     * @param client  the client's control address
     * @param options the options the test ran with on this end (device, GID and the client's parameters)
     * @param result  the result, when the test ran
     * @param failure why it did not, otherwise
     */
    public record Served(InetAddress client, Optional<TestOptions> options, Optional<PerfTestResult> result,
                         Optional<RuntimeException> failure) {
        public Served {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(options, "options");
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(failure, "failure");
        }
    }

    /**
     * Waits up to {@code acceptTimeout} for a client and runs its test (bounded by its deadlines).
     * Test failures, refusals and allocation failures are returned, not thrown.
     *
     * @return the served client, or empty when none came in time
     * @throws IOException when the server was closed or the wait interrupted
     */
    public Optional<Served> serveNext(Duration acceptTimeout) throws IOException {
        if (closed) {
            throw new IOException("this jperf serve is closed");
        }
        ControlChannel channel;
        try {
            channel = handoff.poll(acceptTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a client");
        }
        return channel == null ? Optional.empty() : Optional.of(serve(channel));
    }

    private Served serve(ControlChannel channel) {
        InetAddress client = channel.remoteAddress();
        Session session = new Session(channel);
        session.extendDeadline(System.nanoTime() + Math.min(settings.timeout().toNanos(), REQUEST_TIME.toNanos()));
        session.watch();
        try (channel; session) {
            PerfTestResult result = TestSession.served(base, channel, settings, session).run();
            return new Served(client, Optional.ofNullable(session.options), Optional.of(result), Optional.empty());
        } catch (IOException e) {
            return failed(client, session, new TestFailedException(e.getMessage(), e));
        } catch (RuntimeException e) {
            return failed(client, session, e);
        } catch (OutOfMemoryError e) {
            return failed(client, session, new TestFailedException("the server could not allocate memory for this"
                    + " test (" + e.getMessage() + "); lower its --max-memory or give its JVM more (-Xmx)", null));
        }
    }

    private Served failed(InetAddress client, Session session, RuntimeException e) {
        RuntimeException failure = e;
        if (session.aborted) {
            failure = new TestFailedException("dropped at the deadline: the client's exchange or test took longer than"
                    + " this server allows (" + Math.min(settings.timeout().toSeconds(), REQUEST_SECONDS) + " s to send its"
                    + " request, then --timeout " + settings.timeout().toSeconds() + " s to set up, --max-duration "
                    + limits.maxDuration().toSeconds() + " s to run)", e);
        }
        return new Served(client, Optional.ofNullable(session.options), Optional.empty(), Optional.of(failure));
    }

    @Override
    public void close() throws IOException {
        closed = true;
        try {
            listening.close();
        } finally {
            try {
                acceptor.join(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            busyAnswers.shutdownNow();
            watchdog.shutdownNow();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            ControlChannel channel;
            try {
                channel = listening.accept(ACCEPT_POLL);
            } catch (ProtocolException e) {
                if (e.getCause() instanceof SocketTimeoutException) {
                    continue;
                }
                pause();
                continue;
            } catch (IOException e) {
                if (!closed) {
                    events.accept("accepting a connection failed: " + e.getMessage());
                    pause(); // e.g. out of file descriptors: try again shortly rather than spin or die
                }
                continue;
            }
            try {
                if (!handoff.offer(channel, HANDOFF_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                    turnAway(channel);
                }
            } catch (InterruptedException e) {
                closeQuietly(channel);
                return;
            }
        }
    }

    /** A test runs: the client hears "busy" within a few seconds, from a small bounded pool, or is closed. */
    private void turnAway(ControlChannel channel) {
        turnedAwayBusy.incrementAndGet();
        String who = channel.remoteAddress().getHostAddress();
        if (busyAnswers.getQueue().remainingCapacity() == 0) {
            closeQuietly(channel);
            events.accept("busy: closed " + who + " at once (too many waiting for a busy answer)");
            return;
        }
        try {
            busyAnswers.execute(() -> answerBusy(channel));
            events.accept("busy: turned away " + who + " while a test runs");
        } catch (RejectedExecutionException e) {
            closeQuietly(channel);
        }
    }

    private void answerBusy(ControlChannel channel) {
        try (channel) {
            channel.setReadTimeout(BUSY_ANSWER_TIME);
            channel.deadline(System.nanoTime() + BUSY_ANSWER_TIME.toNanos());
            PerftestVersion version = channel.exchangeVersion(PerftestVersion.ADVERTISED);
            if (version.isJperf()) {
                JperfExtension.respond(channel, request -> Map.of(ServeRequest.SERVED, "true",
                        ServeRequest.BUSY, "true",
                        ServeRequest.ERROR, "busy: another client's test is running; try again in a few seconds"),
                        "busy answer");
            }
        } catch (IOException | RuntimeException e) {
            // the client went away or is not jperf: there is nobody to tell
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(ControlChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }

    /**
     * One served client: opens this end once the client's request passed authentication, the
     * checks and the budget; watches the deadline; frees everything when the session ends.
     */
    private final class Session implements TestSession.ServeOpener, AutoCloseable {
        private final ControlChannel channel;
        private volatile long deadline;
        private volatile boolean aborted;
        private boolean closed;
        private TestOptions options;
        private Endpoint endpoint;
        private CmLink cm;

        Session(ControlChannel channel) {
            this.channel = channel;
        }

        void extendDeadline(long nanoTime) {
            deadline = nanoTime;
            channel.deadline(nanoTime);
        }

        void watch() {
            schedule(deadline - System.nanoTime() + ABORT_GRACE_NANOS);
        }

        private void schedule(long delayNanos) {
            try {
                watchdog.schedule(this::check, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the server is closing
            }
        }

        private void check() {
            synchronized (this) {
                if (closed) {
                    return;
                }
            }
            long late = System.nanoTime() - deadline;
            if (late < ABORT_GRACE_NANOS) {
                schedule(ABORT_GRACE_NANOS - late);
                return;
            }
            abort();
        }

        /** From the watchdog: ends the session whatever it waits for. */
        private synchronized void abort() {
            if (closed) {
                return;
            }
            aborted = true;
            droppedAtDeadline.incrementAndGet();
            events.accept("deadline: dropped " + channel.remoteAddress().getHostAddress());
            closeQuietly(channel);
            stopQueuePairs(endpoint);
            stopQueuePairs(cm == null ? null : cm.endpoint());
        }

        private void stopQueuePairs(Endpoint e) {
            if (e == null) {
                return;
            }
            for (QueuePair qp : e.qps()) {
                try {
                    qp.modifyToError();
                } catch (RuntimeException ignored) {
                    // already closed or in error: the loop ends either way
                }
            }
        }

        @Override
        public TestSession.Opened open(Map<String, String> request, ControlChannel channel) throws IOException {
            Map<String, String> answer = Map.of();
            if (limits.authSecret().isPresent()) {
                answer = ServeAuth.challenge(channel, limits.authSecret().get());
            }
            TestOptions.Builder builder;
            Optional<InetAddress> asked;
            try {
                builder = ServeRequest.apply(request, base);
                asked = ServeRequest.literalAddress(request);
                Optional<byte[]> gid = ServeRequest.clientGid(request);
                if (gid.isPresent() && !limits.allowGidMismatch()) {
                    GidOwnership.problem(gid.get(), channel.remoteAddress()).ifPresent(p -> {
                        throw new ServeRefusedException(p, null, null);
                    });
                }
            } catch (OptionsException e) {
                throw new ServeRefusedException("the client's request is not valid: " + e.getMessage(), e, null);
            }
            // the client's part of the exchange is done: from here the server's own work (device lookup,
            // allocation) and the test run on the test's deadline, not the request's
            extendDeadline(System.nanoTime() + settings.timeout().toNanos() * 2 + limits.maxDuration().toNanos());
            InetAddress target = asked.orElse(channel.localAddress());
            Optional<GidLocation> location = locate(target);
            if (location.isPresent()) {
                builder.device(location.get().device().name()).ibPort(location.get().port().number())
                        .gidIndex(location.get().gid().index());
            } else if (asked.isPresent()) {
                throw new ServeRefusedException("no RDMA device of the server has a GID with " + asked.get().getHostAddress()
                        + " (GIDs with an IP here: " + describeGids() + "); check that the address is on the"
                        + " RoCE netdev (`ip -br addr`) and that the port is up (`jperf devices -v`)", null, null);
            } else {
                builder.device(base.target().device()).gidIndex(base.target().gidIndex());
            }
            if (location.isPresent()) {
                builder.bindSourceIp(target.getHostAddress());
            }
            TestOptions requested;
            try {
                requested = builder.build();
            } catch (OptionsException e) {
                throw new ServeRefusedException("the client's request is not valid: " + e.getMessage(), e, null);
            }
            ServeBudget.check(requested.params(), limits);
            options = requested;
            try {
                synchronized (this) {
                    if (options.params().rdmaCm()) {
                        cm = CmLink.listen(options);
                    } else {
                        endpoint = Endpoint.open(options);
                    }
                }
            } catch (IOException | RuntimeException e) {
                throw new ServeRefusedException(e.getMessage(), e, probe(location, channel.remoteAddress()));
            } catch (OutOfMemoryError e) {
                throw new ServeRefusedException("the server could not allocate the test's memory (" + e.getMessage()
                        + ")", null, null);
            }
            return new TestSession.Opened(options, endpoint, cm, answer);
        }

        @Override
        public void checkKeys(List<KeyMessage> remoteKeys, ControlChannel channel) {
            if (limits.allowGidMismatch()) {
                return;
            }
            for (KeyMessage key : remoteKeys) {
                GidOwnership.problem(key.hasGid() ? key.gid() : null, channel.remoteAddress()).ifPresent(p -> {
                    throw new TestFailedException("refused the client's key message: " + p);
                });
            }
        }

        /** This end's path record for the client's verdicts, when the device could not be used; null if unknown. */
        private PathRecord probe(Optional<GidLocation> location, InetAddress client) {
            if (location.isEmpty()) {
                return null;
            }
            GidLocation l = location.get();
            try (PathProbe probe = PathProbe.live()) {
                return probe.probe(l.device(), l.port(), l.gid(), client, new TrafficClass(options.params().trafficClass()));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        @Override
        public synchronized void close() {
            closed = true;
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
}
