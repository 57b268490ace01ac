package io.jperf.doctor;

import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.Evidence;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The smoke tests as a jperf client of the peer's {@code jperf serve}: {@link PerfTest} with the
 * server asked to use the rail's address, no settle pause and no warm-up (two jperf ends).
 */
final class LiveSmokeRunner implements Doctor.SmokeRunner {

    @Override
    public SmokeResult run(TestOptions options, String servePeerAddress, Duration timeout) {
        TestKind kind = options.params().kind();
        try {
            PerfTestResult r = PerfTest.of(options).timeout(timeout).settleDelay(Duration.ZERO)
                    .warmup(Duration.ZERO).servePeerAddress(servePeerAddress).run();
            Evidence figures = new Evidence();
            if (!r.bandwidth().isEmpty()) {
                BandwidthResult b = r.bandwidth().getFirst();
                figures.with("size", b.sizeBytes()).with("iterations", b.iterations())
                        .with("average", fmt(b.average()) + " " + b.unit().label())
                        .with("peak", fmt(b.peak()) + " " + b.unit().label())
                        .with("msgRate", String.format(Locale.ROOT, "%.4g", b.messageRateMpps()) + " Mpps");
            }
            if (!r.latency().isEmpty()) {
                LatencyResult l = r.latency().getFirst();
                figures.with("size", l.sizeBytes()).with("iterations", l.iterations())
                        .with("typical", fmt(l.typicalUs()) + " us").with("min", fmt(l.minUs()) + " us")
                        .with("p99", fmt(l.p99Us()) + " us");
            }
            return SmokeResult.ran(kind, figures, r.path(), r.peerVersion());
        } catch (TestFailedException e) {
            return SmokeResult.failed(kind, unreachable(e) ? SmokeResult.Stage.CONNECT : SmokeResult.Stage.TEST,
                    message(e), e.verdicts());
        } catch (RdmaException | RdmaUnavailableException e) {
            // the client opens its device before it connects
            return SmokeResult.failed(kind, SmokeResult.Stage.LOCAL, message(e), List.of());
        } catch (RuntimeException | LinkageError e) {
            return SmokeResult.failed(kind, SmokeResult.Stage.TEST, message(e), List.of());
        }
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String message(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** The control connection failed: nothing listening, no route, or it timed out connecting. */
    private static boolean unreachable(Throwable e) {
        if (String.valueOf(e.getMessage()).startsWith("could not connect")) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException || t instanceof UnknownHostException
                    || String.valueOf(t.getMessage()).startsWith("could not connect")) {
                return true;
            }
        }
        return false;
    }
}
