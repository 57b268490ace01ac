package io.jperf.sweep;

import java.time.Duration;
import java.util.Locale;

/**
 * Text helpers of the sweep's HTML report: escaping for XML-compatible HTML, number and size
 * formatting, truncation. Stateless and thread-safe.
 */
final class HtmlText {

    private HtmlText() {
    }

    /**
     * Escapes text for element content and quoted attribute values. Characters XML does not allow
     * (control characters other than tab, newline and carriage return; lone surrogates) become
     * U+FFFD, so text from the system or the peer can never break the document.
     */
    static String esc(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        sb.append(c).append(text.charAt(++i));
                    } else if (Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF'
                            || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
                        sb.append('\uFFFD');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** At most {@code max} characters of {@code text}; a shortened text ends with an ellipsis. */
    static String truncate(String text, int max) {
        if (text.codePointCount(0, text.length()) <= max) {
            return text;
        }
        int end = text.offsetByCodePoints(0, Math.max(1, max - 1));
        return text.substring(0, end) + "\u2026";
    }

    /**
     * A measured figure with a precision that suits its size: {@code 0.123}, {@code 9.87},
     * {@code 18.52}, {@code 123.4}, {@code 4821}.
     */
    static String num(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        double a = Math.abs(v);
        if (a > 0 && a < 0.01) {
            // small figures (an emulated lab's message rate, 0.0003 Mpps) keep three significant digits
            return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
        }
        String f = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 || a == 0 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, f, v);
    }

    /** An SVG coordinate: at most two decimals, no exponent, never NaN. */
    static String coord(double v) {
        if (!Double.isFinite(v)) {
            return "0";
        }
        String s = String.format(Locale.ROOT, "%.2f", v);
        s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
        return s.equals("-0") ? "0" : s;
    }

    /** A message size as perftest users write it: {@code 2}, {@code 64}, {@code 4K}, {@code 64K}, {@code 1M}. */
    static String size(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "G";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "M";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "K";
        }
        return Long.toString(bytes);
    }

    /** A duration in seconds as {@code 850 ms}, {@code 12.3 s} or {@code 4 min 05 s}. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
}
