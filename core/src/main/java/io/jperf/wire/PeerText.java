package io.jperf.wire;

/**
 * Makes text that came from a peer (or quotes it) safe to print on a terminal, in a log or in a
 * report: control characters (C0, DEL, C1 such as the 8-bit CSI, and Unicode format characters
 * such as bidirectional overrides) are escaped as {@code \xNN} or {@code \}{@code uNNNN}, and the
 * length is capped with a note of how much was cut. Nothing a peer sends can then move a cursor,
 * change colours, rewrite a line or flood a log. Stateless; thread-safe.
 */
public final class PeerText {
    /** The longest single line of peer text shown, in characters. */
    public static final int MAX_LINE = 512;
    /** The longest multi-line message shown, in characters. */
    public static final int MAX_MESSAGE = 8192;

    private PeerText() {
    }

    /** One line: every control character escaped (a line break too), backslashes doubled, capped at {@link #MAX_LINE}. */
    public static String line(String text) {
        return escape(text, MAX_LINE, false);
    }

    /**
     * A message that may span lines: line breaks and tabs kept, every other control character
     * escaped, capped at {@link #MAX_MESSAGE}.
     */
    public static String multiline(String text) {
        return escape(text, MAX_MESSAGE, true);
    }

    /**
     * A report of this end's own making that quotes a peer (path records, the sweep table): line
     * breaks and tabs kept, every other control character escaped, no length cap (the peer's parts
     * were capped where they came in).
     */
    public static String report(String text) {
        return escape(text, Integer.MAX_VALUE, true);
    }

    private static String escape(String text, int max, boolean keepLines) {
        if (text == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder((int) Math.min((long) text.length() + 16, (long) max + 16));
        int i = 0;
        for (; i < text.length() && sb.length() < max; i++) {
            char c = text.charAt(i);
            if (keepLines && (c == '\n' || c == '\t')) {
                sb.append(c);
            } else if (c == '\\' && !keepLines) {
                sb.append("\\\\");
            } else if (c == '\n' || c == '\t' || c == '\r') {
                sb.append(c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r");
            } else if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else if ((c >= 0x80 && c <= 0x9f) || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.LINE_SEPARATOR
                    || Character.getType(c) == Character.PARAGRAPH_SEPARATOR
                    || (Character.isSurrogate(c) && !pairedSurrogate(text, i))) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (i < text.length()) {
            sb.append("... (").append(text.length() - i).append(" more characters)");
        }
        return sb.toString();
    }

    private static boolean pairedSurrogate(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
