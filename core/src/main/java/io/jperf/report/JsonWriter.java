package io.jperf.report;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A small streaming JSON writer producing indented, valid JSON (RFC 8259). Strings are escaped (quotes,
 * backslash, control characters, U+2028/U+2029); NaN and infinities, which JSON cannot represent, are
 * written as {@code null}. Misuse (a value where a name is required, unbalanced ends) throws
 * {@link IllegalStateException}. Not thread-safe; one writer per document.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder(1024);
    private final Deque<Frame> stack = new ArrayDeque<>();
    private boolean topLevelWritten;

    /** An empty document. */
    public JsonWriter() {
    }

    private static final class Frame {
        final boolean object;
        int count;
        boolean nameWritten;

        Frame(boolean object) {
            this.object = object;
        }
    }

    public JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        stack.push(new Frame(true));
        return this;
    }

    public JsonWriter endObject() {
        return end(true, '}');
    }

    public JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        stack.push(new Frame(false));
        return this;
    }

    public JsonWriter endArray() {
        return end(false, ']');
    }

    /** The name of the next member of the current object. */
    public JsonWriter name(String name) {
        Frame f = stack.peek();
        if (f == null || !f.object || f.nameWritten) {
            throw new IllegalStateException("a name is only allowed inside an object, before its value");
        }
        if (f.count > 0) {
            out.append(',');
        }
        newline();
        string(name);
        out.append(": ");
        f.nameWritten = true;
        return this;
    }

    /** A string value, or null. */
    public JsonWriter value(String s) {
        beforeValue();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        return afterValue();
    }

    public JsonWriter value(long v) {
        beforeValue();
        out.append(v);
        return afterValue();
    }

    /** A number; NaN and infinities become {@code null}. */
    public JsonWriter value(double v) {
        beforeValue();
        out.append(Double.isFinite(v) ? BigDecimal.valueOf(v).toPlainString() : "null");
        return afterValue();
    }

    public JsonWriter value(boolean v) {
        beforeValue();
        out.append(v);
        return afterValue();
    }

    /** {@code null}. */
    public JsonWriter nullValue() {
        beforeValue();
        out.append("null");
        return afterValue();
    }

    /** Shorthand for {@code name(n).value(v)}. */
    public JsonWriter field(String n, String v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, long v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, double v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, boolean v) {
        return name(n).value(v);
    }

    /**
     * The finished document with a trailing newline.
     *
     * @throws IllegalStateException if an object or array is still open or nothing was written
     */
    public String toJson() {
        if (!stack.isEmpty() || !topLevelWritten) {
            throw new IllegalStateException("JSON document is incomplete");
        }
        return out + "\n";
    }

    private void beforeValue() {
        Frame f = stack.peek();
        if (f == null) {
            if (topLevelWritten) {
                throw new IllegalStateException("a JSON document has one top-level value");
            }
            return;
        }
        if (f.object) {
            if (!f.nameWritten) {
                throw new IllegalStateException("an object member needs a name before its value");
            }
        } else {
            if (f.count > 0) {
                out.append(',');
            }
            newline();
        }
    }

    private JsonWriter afterValue() {
        Frame f = stack.peek();
        if (f == null) {
            topLevelWritten = true;
        } else {
            f.count++;
            f.nameWritten = false;
        }
        return this;
    }

    private JsonWriter end(boolean object, char close) {
        Frame f = stack.peek();
        if (f == null || f.object != object || f.nameWritten) {
            throw new IllegalStateException("unbalanced JSON: cannot close " + (object ? "object" : "array"));
        }
        stack.pop();
        if (f.count > 0) {
            newline();
        }
        out.append(close);
        return afterValue();
    }

    private void newline() {
        out.append('\n').append("  ".repeat(stack.size()));
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
