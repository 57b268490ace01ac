package io.jperf.sweep;

/**
 * Hears a running sweep, e.g. to print one line per point. Called on the thread that runs the
 * sweep, between points (and for warnings, during one). Every method has an empty default.
 */
public interface SweepListener {
    /** A listener that ignores everything. */
    SweepListener NONE = new SweepListener() {
    };

    /** Point {@code choice.index() + 1} of {@code total} starts. */
    default void started(SweepChoice choice, int total) {
    }

    /** A point ended: it ran ({@code row.ok()}, with its headline) or failed (with its error). */
    default void finished(SweepRow row, int total) {
    }

    /** Something about a point the user should know that did not stop it. */
    default void warning(SweepChoice choice, String message) {
    }
}
