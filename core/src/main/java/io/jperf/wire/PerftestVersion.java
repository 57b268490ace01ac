package io.jperf.wire;

import java.util.Objects;

/**
 * A perftest version string as exchanged on the control channel (e.g. {@code "6.06"}), compared the way
 * perftest compares it: by the decimal number at its start ({@code atof}).
 *
 * <p>jperf advertises {@link #ADVERTISED} = {@code "6.06 jperf"}: perftest reads only the leading number
 * ({@code atof}), so to perftest this is 6.06, the version of Debian's perftest package, while a jperf peer
 * recognises the marker and runs the jperf extension exchange ({@link JperfExtension}):
 * <ul>
 *   <li>it is at least 5.70, the oldest version a perftest peer accepts;</li>
 *   <li>being at least 5.33 it makes the peer send page size and cache line (5.32), the MTU as a
 *       two-byte digit (5.31) and 8-byte iteration counts in bandwidth reports (5.33);</li>
 *   <li>being below 6.28 it keeps 6.29 and later from sending their binary parameter-negotiation struct,
 *       whose size and byte order depend on how the peer was built (perftest 6.28 sends it to every peer;
 *       jperf answers it, see {@link ParameterNegotiation});</li>
 *   <li>over {@code -R}'s RDMA CM control QP, the peer's version also decides the binary key layout and
 *       the largest message jperf may send it ({@link KeyFormat}).</li>
 * </ul>
 * jperf refuses peers older than {@link #MIN_SUPPORTED}, so every older feature gate is always met and
 * the exchange has a single shape.
 *
 * @param text the version text without NUL padding
 * @param number its leading decimal number, as C's {@code atof} reads it (0 when there is none)
 */
public record PerftestVersion(String text, double number) {

    /** The version jperf sends. */
    public static final PerftestVersion ADVERTISED = parse("6.06 jperf");
    /** The word in the version text that marks a jperf peer. */
    public static final String JPERF_MARKER = "jperf";
    /** The oldest peer version perftest (and jperf) accept. */
    public static final double MIN_SUPPORTED = 5.70;

    public PerftestVersion {
        Objects.requireNonNull(text, "text");
    }

    /** Reads the leading {@code digits[.digits]} of {@code text} like {@code atof}. */
    public static PerftestVersion parse(String text) {
        Objects.requireNonNull(text, "text");
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        int start = i;
        while (i < text.length() && isDigit(text.charAt(i))) {
            i++;
        }
        if (i < text.length() && text.charAt(i) == '.') {
            i++;
            while (i < text.length() && isDigit(text.charAt(i))) {
                i++;
            }
        }
        String num = text.substring(start, i);
        double value = num.isEmpty() || num.equals(".") ? 0 : Double.parseDouble(num);
        return new PerftestVersion(text, value);
    }

    /** Whether the peer is jperf (its version text carries {@link #JPERF_MARKER}). */
    public boolean isJperf() {
        return text.contains(JPERF_MARKER);
    }

    /** Whether this version is at least {@code version}. */
    public boolean atLeast(double version) {
        return number >= version;
    }

    /** Whether a perftest peer of this version can talk to jperf. */
    public boolean isSupported() {
        return atLeast(MIN_SUPPORTED);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    @Override
    public String toString() {
        return text;
    }
}
