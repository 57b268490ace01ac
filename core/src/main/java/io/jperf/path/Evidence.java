package io.jperf.path;

import java.util.LinkedHashMap;

/**
 * The values a check read, in reading order, as text: {@code new Evidence().with("netdev", "eth2")}.
 * Mutable while a check fills it; {@link CheckResult} and {@link Verdict} keep an unmodifiable copy.
 */
public final class Evidence extends LinkedHashMap<String, String> {
    private static final long serialVersionUID = 1L;

    /** An empty record, filled with {@link #with}. */
    public Evidence() {
    }

    /** Adds {@code key = String.valueOf(value)} and returns this. */
    public Evidence with(String key, Object value) {
        put(key, String.valueOf(value));
        return this;
    }
}
