package io.jperf.cli;

import io.jperf.engine.PathReport;
import io.jperf.engine.TestListener;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;
import io.jperf.stats.LatencySamples;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A one-line progress indicator on stderr for long runs, shown only when the terminal flag says so
 * (stdout and stderr are for people, not a file or a pipe); forwards every event to the wrapped listener.
 *
 * <p>With {@code -a} it counts the sizes done ({@code [jperf] 3/23 sizes done}). With {@code -D} it
 * shows the time since both ends connected against the duration ({@code [jperf] -D 60: 12/60 s}),
 * refreshed once a second by {@link #start()}'s daemon thread from the clock it was given, so a test
 * drives {@link #tick()} with a fake clock instead. The line is cleared ({@code \r} then erase to end of
 * line) before any result or warning is printed and by {@link #close()}, so it never mixes with
 * perftest's table or lands in an error message.
 *
 * <p>Threading: the listener methods run on the test's thread, {@link #tick()} on the ticker's; both
 * write under this object's lock. {@link #close()} is idempotent.
 */
final class ProgressIndicator implements TestListener, AutoCloseable {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final TestListener delegate;
    private final PrintWriter err;
    private final boolean enabled;
    private final int durationSeconds;
    private final LongSupplier nanoClock;
    private long connectedAt = -1;
    private boolean shown;
    private boolean finished;
    private ScheduledExecutorService ticker;

    /**
     * @param terminal whether stderr goes to a terminal; without one nothing is ever printed
     * @param durationSeconds {@code -D}, 0 when the run counts iterations
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime})
     */
    ProgressIndicator(TestListener delegate, PrintWriter err, boolean terminal, int durationSeconds,
                      LongSupplier nanoClock) {
        this.delegate = delegate;
        this.err = err;
        this.enabled = terminal;
        this.durationSeconds = durationSeconds;
        this.nanoClock = nanoClock;
    }

    /** Whether stderr is probably a terminal: the JVM has a console that is a terminal (not redirected). */
    static boolean onTerminal() {
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }

    /** With {@code -D} on a terminal: refreshes the time line once a second until {@link #close()}. */
    ProgressIndicator start() {
        if (enabled && durationSeconds > 0) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "jperf-progress");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        }
        return this;
    }

    @Override
    public void connected(TestHeader header, List<EndpointInfo> local, List<EndpointInfo> remote) {
        delegate.connected(header, local, remote);
        synchronized (this) {
            connectedAt = nanoClock.getAsLong();
        }
    }

    @Override
    public void path(PathReport path) {
        delegate.path(path);
    }

    @Override
    public void measuring(long sizeBytes) {
        delegate.measuring(sizeBytes);
    }

    @Override
    public void bandwidth(BandwidthResult result) {
        clearForResult();
        delegate.bandwidth(result);
    }

    @Override
    public void bandwidthParts(BandwidthResult local, BandwidthResult remote) {
        delegate.bandwidthParts(local, remote);
    }

    @Override
    public void runStopped(BandwidthResult whole, long elapsedNanos, String why) {
        clearForResult();
        delegate.runStopped(whole, elapsedNanos, why);
    }

    @Override
    public void latencySamples(long sizeBytes, LatencySamples samples) {
        clearForResult();
        delegate.latencySamples(sizeBytes, samples);
    }

    @Override
    public void latency(LatencyResult result) {
        clearForResult();
        delegate.latency(result);
    }

    @Override
    public void warning(String message) {
        clear();
        delegate.warning(message);
    }

    /** Sizes done of {@code -a}: shown while sizes remain. */
    @Override
    public synchronized void progress(long done, long total) {
        if (enabled && durationSeconds == 0 && done < total) {
            show(String.format("[jperf] %d/%d sizes done", done, total));
        }
    }

    /**
     * The {@code -D} line: whole seconds since both ends connected, at most the duration (the rest is
     * the closing exchange). Nothing before connecting, after the result, or off a terminal.
     */
    synchronized void tick() {
        if (!enabled || durationSeconds == 0 || connectedAt < 0 || finished) {
            return;
        }
        long elapsed = Math.min(durationSeconds, (nanoClock.getAsLong() - connectedAt) / NANOS_PER_SECOND);
        show(String.format("[jperf] -D %d: %d/%d s", durationSeconds, elapsed, durationSeconds));
    }

    /** Stops the ticker and clears the line; the result or error that follows starts on a clean line. */
    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            finished = true;
            t = ticker;
            ticker = null;
        }
        if (t != null) {
            t.shutdownNow();
        }
        clear();
    }

    private synchronized void clearForResult() {
        if (durationSeconds > 0) {
            finished = true;
        }
        clear();
    }

    private void show(String line) {
        err.print("\r\033[K" + line);
        err.flush();
        shown = true;
    }

    private synchronized void clear() {
        if (enabled && shown) {
            err.print("\r\033[K");
            err.flush();
            shown = false;
        }
    }
}
