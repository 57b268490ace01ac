package io.jperf.engine;

/**
 * Asks a running test to stop early: perftest's {@code --run_infinitely} runs until the user stops it
 * (Ctrl-C), then jperf ends the run cleanly and reports it. The data path reads {@link #requested()}
 * (one volatile read) where it reads the clock; {@link #request()} may be called from any thread, e.g. a
 * signal handler's. Once requested, it stays requested.
 */
public final class StopSignal {
    private volatile boolean requested;
    private volatile String reason;

    /** Not requested yet. */
    public StopSignal() {
    }

    /** Asks the test to stop; {@code why} says what asked (e.g. {@code "SIGINT"}). Idempotent: the first reason stays. */
    public void request(String why) {
        if (!requested) {
            reason = why;
            requested = true;
        }
    }

    public boolean requested() {
        return requested;
    }

    /** What asked the test to stop, or null when nothing did. */
    public String reason() {
        return requested ? reason : null;
    }
}
