package io.jperf.options;

import java.util.Locale;

/**
 * perftest's {@code --output=} verbosity: {@link #NONE} prints the full report, the others print only
 * one number per message size.
 */
public enum OutputMode {
    /** Full report (no {@code --output} given). */
    NONE(null),
    /** {@code --output=bandwidth}: average bandwidth only (bandwidth tests). */
    BANDWIDTH("bandwidth"),
    /** {@code --output=message_rate}: message rate only (bandwidth tests). */
    MESSAGE_RATE("message_rate"),
    /** {@code --output=latency}: average latency only (latency tests). */
    LATENCY("latency");

    private final String flagValue;

    OutputMode(String flagValue) {
        this.flagValue = flagValue;
    }

    /** The value written after {@code --output=}, or null for {@link #NONE}. */
    public String flagValue() {
        return flagValue;
    }

    /** Whether this mode is valid for the given test kind. */
    public boolean appliesTo(TestKind kind) {
        return switch (this) {
            case NONE -> true;
            case BANDWIDTH, MESSAGE_RATE -> kind.isBandwidth();
            case LATENCY -> !kind.isBandwidth();
        };
    }

    /**
     * Parses a {@code --output=} value.
     *
     * @throws OptionsException naming the accepted values
     */
    public static OutputMode parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (OutputMode m : values()) {
            if (m.flagValue != null && m.flagValue.equals(v)) {
                return m;
            }
        }
        throw new OptionsException("--output: unknown value '" + value
                + "'; use bandwidth or message_rate (bw tests), latency (lat tests)");
    }
}
