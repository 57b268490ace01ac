package io.jperf.wire;

import io.jperf.options.TestKind;
import io.jperf.options.TestParameters;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The order of perftest's control exchanges for every kind ({@code ib_write_bw}, {@code ib_send_lat}, ...),
 * driving a {@link ControlChannel} over either transport (TCP, or with {@code -R} the RDMA CM control QP, where the
 * caller adds the two {@link ControlChannel#sync} exchanges around connecting the test QPs and perftest
 * 6.28's {@link ControlChannel#exchangeNegotiation} after the preamble). The caller performs the QP work
 * between the steps:
 * <ol>
 *   <li>{@link #exchangeVersion} and {@link #preamble}: (bw only) both sides sleep 1 s; version; page size
 *       and cache line; MTU. Two jperf ends exchange their extension between the version and the rest.</li>
 *   <li>{@link #exchangeQpKeys}: the key message of every QP (lat first sends QP0's one extra time).
 *       The caller then moves its QPs to RTR and RTS with the remote values.</li>
 *   <li>{@link #confirmQpKeys}: every QP's key message again, after the QPs are connected (perftest
 *       prints these as the remote addresses).</li>
 *   <li>{@link #barrier}: one more QP0 exchange; then the measurement may start.</li>
 *   <li>Per message size: {@link #beforeMeasurement} and {@link #afterMeasurement} (they exchange only in
 *       bidirectional bw: a sync before the run, with {@code -a} a sync after it, then both reports).</li>
 *   <li>{@link #finish}: unidirectional bw: an end-of-test key exchange (the server waits in it while the
 *       client measures) and the client's report; then for all bw runs the closing key exchange and
 *       {@code "done"}. Latency has no report and no closing exchange: the connection is just closed.</li>
 * </ol>
 * Send tests (the verb {@linkplain io.jperf.options.Verb#usesReceives() receives}) differ as ib_send_bw and
 * ib_send_lat do: no extra latency key message; a sync before every size (after the receives are posted);
 * with {@code -a} ib_send_bw also syncs after every size; no end-of-test exchange and no report exchange
 * (the server measured what it received); the closing exchange for bandwidth and latency alike.
 * Calling a step out of order throws {@link IllegalStateException}. Not thread-safe; owns the channel and
 * closes it in {@link #finish} or {@link #close}.
 */
public final class PerftestHandshake implements AutoCloseable {

    /** How long both sides of a bandwidth test pause after connecting (perftest's {@code sleep(1)}). */
    public static final Duration BW_SETTLE_DELAY = Duration.ofSeconds(1);

    private enum Step { NEW, VERSION_DONE, PREAMBLE_DONE, KEYS_DONE, CONFIRMED, READY, FINISHED }

    private final ControlChannel channel;
    private final TestKind kind;
    private final boolean bidirectional;
    private final boolean allSizes;
    private final Duration settleDelay;
    private Step step = Step.NEW;
    private KeyMessage qp0;
    private boolean everyReport;
    private List<BwReport> peerReports = List.of();

    /**
     * @param channel a connected channel; its role (server or client) decides who speaks first
     * @param params the parameters both ends agreed on (kind, {@code -b}, {@code -a} shape the exchange)
     */
    public PerftestHandshake(ControlChannel channel, TestParameters params) {
        this(channel, params, BW_SETTLE_DELAY);
    }

    /**
     * @param settleDelay the pause of bandwidth tests after connecting; perftest uses 1 s, tests may use 0
     */
    public PerftestHandshake(ControlChannel channel, TestParameters params, Duration settleDelay) {
        this.channel = Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(params, "params");
        this.kind = params.kind();
        this.bidirectional = params.bidirectional();
        this.allSizes = params.allSizes();
        this.settleDelay = Objects.requireNonNull(settleDelay, "settleDelay");
    }

    /**
     * A handshake whose version exchange already ran on {@code channel} (e.g. by a server that
     * learns the test's parameters from a jperf client only after it), continuing with
     * {@link #preamble}.
     */
    public static PerftestHandshake afterVersion(ControlChannel channel, TestParameters params) {
        if (channel.remoteVersion() == null) {
            throw new IllegalStateException("the version exchange has not run on this channel");
        }
        PerftestHandshake h = new PerftestHandshake(channel, params, Duration.ZERO);
        h.step = Step.VERSION_DONE;
        return h;
    }

    /** The channel being driven (e.g. to change its read timeout). */
    public ControlChannel channel() {
        return channel;
    }

    /**
     * What the preamble agreed on.
     *
     * @param remoteVersion the peer's perftest version
     * @param pageAndCacheLine the larger page size and cache line size of the two sides
     * @param ibvMtu the smaller {@code enum ibv_mtu} of the two sides (1 = 256 .. 5 = 4096)
     */
    public record Preamble(PerftestVersion remoteVersion, PageAndCacheLine pageAndCacheLine, int ibvMtu) {
    }

    /**
     * Step 1a. For bandwidth tests sleeps the settle delay first, then exchanges the version
     * ({@link PerftestVersion#ADVERTISED}). Two jperf ends exchange their extension fields next,
     * before {@link #preamble}, so a server can learn the test's parameters before it opens a device.
     */
    public PerftestVersion exchangeVersion() throws IOException {
        advance(Step.NEW, Step.VERSION_DONE);
        if (kind.isBandwidth() && !settleDelay.isZero()) {
            try {
                Thread.sleep(settleDelay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted before the version exchange");
            }
        }
        return channel.exchangeVersion(PerftestVersion.ADVERTISED);
    }

    /**
     * Step 1b. Exchanges page/cache line and MTU (and the version first, if {@link #exchangeVersion}
     * has not run).
     *
     * @param ibvMtu this side's MTU as {@code enum ibv_mtu} (1..5)
     */
    public Preamble preamble(int pageSize, int cacheLineSize, int ibvMtu) throws IOException {
        if (step == Step.NEW) {
            exchangeVersion();
        }
        advance(Step.VERSION_DONE, Step.PREAMBLE_DONE);
        PageAndCacheLine pc = channel.exchangePageAndCacheLine(pageSize, cacheLineSize);
        int mtu = channel.exchangeMtu(ibvMtu);
        return new Preamble(channel.remoteVersion(), pc, mtu);
    }

    /**
     * Step 2. Exchanges every QP's key message, in QP order (latency: QP0's message once more before).
     *
     * @return the peer's messages, one per QP
     */
    public List<KeyMessage> exchangeQpKeys(List<KeyMessage> ours) throws IOException {
        advance(Step.PREAMBLE_DONE, Step.KEYS_DONE);
        if (ours.isEmpty()) {
            throw new IllegalArgumentException("at least one QP's key message is needed");
        }
        if (!kind.isBandwidth() && ours.size() != 1) {
            throw new IllegalArgumentException("latency tests use one QP (got " + ours.size() + ")");
        }
        qp0 = ours.getFirst();
        if (!kind.isBandwidth() && kind.verb().latencyExtraKeyExchange()) {
            channel.exchangeKeys(qp0, "initial key exchange");
        }
        return exchangeAll(ours, "QP key exchange");
    }

    /**
     * Step 3. Exchanges every QP's key message again, after the caller connected its QPs.
     *
     * @return the peer's messages, one per QP
     */
    public List<KeyMessage> confirmQpKeys(List<KeyMessage> ours) throws IOException {
        advance(Step.KEYS_DONE, Step.CONFIRMED);
        qp0 = ours.getFirst();
        return exchangeAll(ours, "connected-QP key exchange");
    }

    /** Step 4. The last exchange before measuring: both sides have connected QPs. */
    public void barrier() throws IOException {
        advance(Step.CONFIRMED, Step.READY);
        channel.barrier(qp0);
    }

    /**
     * Before each message size: bidirectional bandwidth tests sync both sides, and so do send tests (perftest
     * posts its receives first: the sync keeps the sender from sending before they are posted); otherwise
     * nothing.
     */
    public void beforeMeasurement() throws IOException {
        requireStep(Step.READY);
        if (kind.verb().usesReceives()) {
            channel.exchangeKeys(qp0, "sync after posting the receives");
        } else if (kind.isBandwidth() && bidirectional) {
            channel.exchangeKeys(qp0, "sync before measuring");
        }
    }

    /**
     * After each message size: bidirectional bandwidth tests sync (with {@code -a}) and exchange reports.
     *
     * @return the peer's report in bidirectional bandwidth tests (the caller adds it to its own), else null
     */
    public BwReport afterMeasurement(BwReport ours) throws IOException {
        requireStep(Step.READY);
        if (kind.isBandwidth() && kind.verb().usesReceives()) {
            // ib_send_bw: each end measured and reports on its own; with -a both sync after each size
            if (allSizes) {
                channel.exchangeKeys(qp0, "sync after measuring");
            }
            return null;
        }
        if (!kind.isBandwidth() || !bidirectional) {
            return null;
        }
        if (allSizes) {
            channel.exchangeKeys(qp0, "sync after measuring");
        }
        return channel.exchangeBwReport(Objects.requireNonNull(ours, "ours"));
    }

    /**
     * Both ends are jperf and advertised {@link EveryReport#FIELD}: a unidirectional bandwidth run of
     * {@code -a} then also exchanges every size's report in {@link #finishWithEvery} (after perftest's exchange
     * of the last), so that the server can save every size. Both ends must call it, or neither.
     */
    public void shareEveryReport() {
        everyReport = true;
    }

    /** Whether {@link #shareEveryReport} was called: the peer is a jperf end that sends its reports. */
    public boolean sharesEveryReport() {
        return everyReport;
    }

    /**
     * The peer's reports heard in {@link #finishWithEvery}: with {@link #shareEveryReport} in a unidirectional
     * {@code -a} bandwidth run, every size's (the server's view of the client's run); else the one report
     * {@code finish} returned, or none.
     */
    public List<BwReport> peerReports() {
        return peerReports;
    }

    /**
     * Ends the session and closes the channel. Unidirectional bandwidth: the end-of-test exchange (the
     * server blocks in it for up to {@code peerWait} while the client measures) and the report exchange;
     * every bandwidth test then runs the closing exchange. Write latency only closes; read latency runs
     * the closing exchange (its server blocks in it for up to {@code peerWait} while the client measures).
     *
     * @param ours this side's last report (the server of a unidirectional test has none: pass null and
     *     zeros are sent)
     * @param peerWait how long the server may wait for the client to finish measuring
     * @return in a unidirectional bandwidth test the peer's report (on the server: the client's result,
     *     which perftest prints), else null
     */
    public BwReport finish(BwReport ours, Duration peerWait) throws IOException {
        return finishWithEvery(ours == null ? List.of() : List.of(ours), peerWait);
    }

    /**
     * {@link #finish(BwReport, Duration)} with every size's report of this end, in order: perftest's exchange
     * carries the last; with {@link #shareEveryReport} a unidirectional {@code -a} run also sends them all
     * ({@link #peerReports} on the other end). The server of a unidirectional run passes an empty list.
     */
    public BwReport finishWithEvery(List<BwReport> ours, Duration peerWait) throws IOException {
        requireStep(Step.READY);
        step = Step.FINISHED;
        try {
            if (kind.verb().usesReceives()) {
                // ib_send_bw and ib_send_lat: both ends measured; only the closing exchange is left (the
                // earlier end waits in it for up to peerWait while the other finishes)
                channel.setReadTimeout(peerWait);
                channel.closeHandshake(qp0);
                return null;
            }
            if (!kind.isBandwidth()) {
                if (!kind.verb().latencyIsPingPong()) {
                    // ib_read_lat: the server waits in perftest's closing exchange until the client's reads are done
                    channel.setReadTimeout(peerWait);
                    channel.closeHandshake(qp0);
                }
                return null;
            }
            BwReport theirs = null;
            if (!bidirectional) {
                Duration normal = channel.readTimeout();
                channel.setReadTimeout(peerWait);
                channel.exchangeKeys(qp0, "end of test");
                channel.setReadTimeout(normal);
                theirs = channel.exchangeBwReport(ours.isEmpty() ? new BwReport(0, 0, 0, 0, 0) : ours.getLast());
                peerReports = List.of(theirs);
                if (everyReport && allSizes) {
                    List<BwReport> every = EveryReport.decode(JperfExtension.exchange(channel,
                            EveryReport.encode(ours), "every size's bandwidth report"));
                    if (!every.isEmpty()) {
                        peerReports = List.copyOf(every);
                    }
                }
            }
            channel.closeHandshake(qp0);
            return theirs;
        } finally {
            channel.close();
        }
    }

    /**
     * Closes the channel. Before the end of the exchange (after a failure) the peer is made to stop
     * too ({@link ControlChannel#abandon}). Idempotent.
     */
    @Override
    public void close() throws IOException {
        boolean finished = step == Step.FINISHED;
        step = Step.FINISHED;
        if (finished) {
            channel.close();
        } else {
            channel.abandon();
        }
    }

    private List<KeyMessage> exchangeAll(List<KeyMessage> ours, String what) throws IOException {
        List<KeyMessage> theirs = new ArrayList<>(ours.size());
        for (int i = 0; i < ours.size(); i++) {
            theirs.add(channel.exchangeKeys(ours.get(i), what + " for QP " + i));
        }
        return List.copyOf(theirs);
    }

    private void advance(Step from, Step to) {
        requireStep(from);
        step = to;
    }

    private void requireStep(Step expected) {
        if (step != expected) {
            throw new IllegalStateException("handshake step out of order: at " + step + ", expected " + expected);
        }
    }
}
