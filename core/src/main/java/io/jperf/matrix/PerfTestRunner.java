package io.jperf.matrix;

import io.jperf.JperfException;
import io.jperf.engine.AuthSecret;
import io.jperf.engine.PathReport;
import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.PathJson;
import io.jperf.path.Verdict;
import io.jperf.result.BandwidthResult;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The production {@link PairRunner}: runs the test with the write-test engine as a client of the
 * server host's {@code jperf serve}, on this host's rail device, with the control connection bound
 * to the rail's address (so the server's GID check sees the client's own rail address), proving
 * the shared secret. A server still busy with its previous test is tried again, up to
 * {@value #BUSY_RETRIES} times a second apart. Stateless apart from its settings; thread-safe.
 */
public final class PerfTestRunner implements PairRunner {
    static final int BUSY_RETRIES = 3;
    private static final String BUSY = "busy: another client's test is running";

    private final AuthSecret secret;
    private final int ibPort;

    /**
     * @param secret the shared secret of the members' {@code jperf serve}
     * @param ibPort the port of each rail device
     */
    public PerfTestRunner(AuthSecret secret, int ibPort) {
        this.secret = Objects.requireNonNull(secret, "secret");
        this.ibPort = ibPort;
    }

    @Override
    public PairOutcome run(PairRequest r, Rail rail) {
        TestOptions options;
        try {
            TestOptions.Builder b = TestOptions.builder(r.bandwidth() ? TestKind.WRITE_BW : TestKind.WRITE_LAT)
                    .device(rail.device()).ibPort(ibPort).size(r.size()).durationSeconds(r.durationSeconds())
                    .trafficClass(r.trafficClass()).serverHost(r.serverAddress()).port(r.serverPort());
            if (r.bandwidth()) {
                b.reportGbits(true);
            }
            rail.address().ifPresent(b::bindSourceIp);
            options = b.build();
        } catch (JperfException e) {
            return PairOutcome.failed(e.getMessage(), null, (short) 0);
        }
        PerfTest test = PerfTest.of(options).timeout(r.timeout()).warmup(r.warmup()).authSecret(secret);
        for (int attempt = 0; ; attempt++) {
            try {
                return outcome(test.run());
            } catch (TestFailedException e) {
                if (attempt < BUSY_RETRIES && String.valueOf(e.getMessage()).contains(BUSY)) {
                    pause();
                    continue;
                }
                return PairOutcome.failed(e.getMessage(), null, VerdictMask.of(e.verdicts()));
            } catch (JperfException e) {
                return PairOutcome.failed(e.getMessage(), null, (short) 0);
            } catch (RuntimeException e) {
                return PairOutcome.failed("the test failed unexpectedly: " + e, null, (short) 0);
            }
        }
    }

    /** The headline figure and both ends' path records. */
    static PairOutcome outcome(PerfTestResult result) {
        String path = result.path().map(PerfTestRunner::pathJson).orElse(null);
        List<Verdict> verdicts = result.path().map(PathReport::verdicts).orElse(List.of());
        short mask = VerdictMask.of(verdicts);
        if (!result.bandwidth().isEmpty()) {
            return PairOutcome.ok(gbps(result.bandwidth().getLast()), path, mask);
        }
        if (!result.latency().isEmpty()) {
            return PairOutcome.ok(result.latency().getFirst().typicalUs(), path, mask);
        }
        return PairOutcome.failed("the test gave no result", path, mask);
    }

    /** The average in Gb/s (10^9 bits per second), whatever unit the result is in. */
    static double gbps(BandwidthResult b) {
        return b.average() * b.unit().bytesPerSecond() * 8 / 1e9;
    }

    private static String pathJson(PathReport p) {
        return PathJson.toJson(p.local(), p.peer().orElse(null), p.verdicts()).replace('\n', ' ').strip();
    }

    private static void pause() {
        try {
            Thread.sleep(Duration.ofSeconds(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
