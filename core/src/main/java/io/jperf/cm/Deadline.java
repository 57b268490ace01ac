package io.jperf.cm;

import java.time.Duration;

/** A point in {@link System#nanoTime()} time; what is left of an overall timeout. Immutable. */
record Deadline(long nanos, Duration total) {

    static Deadline after(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be >= 0, not " + timeout);
        }
        return new Deadline(System.nanoTime() + timeout.toNanos(), timeout);
    }

    /** @return the time left, zero once passed */
    Duration left() {
        long left = nanos - System.nanoTime();
        return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
    }

    boolean passed() {
        return nanos - System.nanoTime() <= 0;
    }

    /** @return {@code wait}, but no more than what is left */
    Duration cap(Duration wait) {
        Duration left = left();
        return wait.compareTo(left) < 0 ? wait : left;
    }
}
