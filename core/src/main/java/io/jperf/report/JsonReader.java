package io.jperf.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small strict JSON parser (RFC 8259) for documents from untrusted peers, the reading side of
 * {@link JsonWriter}. Values map to plain Java objects:
 * <ul>
 *   <li>object: {@code LinkedHashMap<String, Object>} in document order; a repeated name is an error</li>
 *   <li>array: {@code List<Object>} (mutable {@link ArrayList})</li>
 *   <li>string: {@link String}, with every escape including {@code \}{@code uXXXX} surrogate pairs; an unpaired
 *       surrogate, escaped or raw, is an error</li>
 *   <li>number: {@link Long} when written without fraction and exponent and within {@code long} range
 *       ({@code -0} is {@code 0L}), else {@link Double}; a number beyond {@code double} range is an error</li>
 *   <li>{@code true}/{@code false}: {@link Boolean}; {@code null}: {@code null}</li>
 * </ul>
 * Nothing beyond RFC 8259 is accepted: no comments, trailing commas, single quotes, leading zeros,
 * {@code NaN}, or content after the top-level value (whitespace aside). Nesting is limited (default
 * {@value #DEFAULT_MAX_DEPTH}) so recursion is bounded, and so is the input length (default
 * {@value #DEFAULT_MAX_CHARS} chars), checked before parsing; the parser is a single forward pass
 * that allocates only in proportion to the input. Every error is a {@link JsonException} naming
 * what was expected and the offset (in chars) where it went wrong. Stateless and thread-safe.
 */
public final class JsonReader {
    /** Default limit on nested objects and arrays. */
    public static final int DEFAULT_MAX_DEPTH = 64;
    /** Default limit on the input length, in chars (1 Mi). */
    public static final int DEFAULT_MAX_CHARS = 1 << 20;

    /** Malformed or over-limit JSON. {@link #offset()} is where parsing stopped. */
    public static final class JsonException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int offset;

        JsonException(String what, int offset) {
            super(what + " at offset " + offset);
            this.offset = offset;
        }

        /** The char offset in the input where the error was found. */
        public int offset() {
            return offset;
        }
    }

    private final String s;
    private final int maxDepth;
    private int pos;
    private int depth;

    private JsonReader(String s, int maxDepth) {
        this.s = s;
        this.maxDepth = maxDepth;
    }

    /** Parses one JSON document with the default limits. */
    public static Object parse(String json) {
        return parse(json, DEFAULT_MAX_DEPTH, DEFAULT_MAX_CHARS);
    }

    /**
     * Parses one JSON document.
     *
     * @param maxDepth the deepest nesting of objects and arrays allowed (a top-level object is depth 1)
     * @param maxChars the longest input allowed
     * @throws JsonException if the input is not one valid JSON value or exceeds a limit
     */
    public static Object parse(String json, int maxDepth, int maxChars) {
        if (json == null) {
            throw new NullPointerException("json");
        }
        if (maxDepth < 1 || maxChars < 0) {
            throw new IllegalArgumentException("limits must be positive: maxDepth " + maxDepth + ", maxChars " + maxChars);
        }
        if (json.length() > maxChars) {
            throw new JsonException("input of " + json.length() + " chars exceeds the limit of " + maxChars, 0);
        }
        JsonReader r = new JsonReader(json, maxDepth);
        r.ws();
        Object v = r.value();
        r.ws();
        if (r.pos != json.length()) {
            throw r.error("expected end of input after the top-level value");
        }
        return v;
    }

    /**
     * Parses a document whose top-level value must be an object, with the default limits.
     *
     * @throws JsonException if the input is malformed or its top-level value is not an object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String json) {
        Object v = parse(json);
        if (!(v instanceof Map)) {
            throw new JsonException("expected a JSON object as the top-level value", 0);
        }
        return (Map<String, Object>) v;
    }

    /** A value starting at {@code pos} (whitespace already skipped). */
    private Object value() {
        if (pos >= s.length()) {
            throw error("unexpected end of input, expected a value");
        }
        char c = s.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("expected a value but found " + describe(c));
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        pos++; // '{'
        Map<String, Object> m = new LinkedHashMap<>();
        ws();
        if (peek() == '}') {
            pos++;
            depth--;
            return m;
        }
        while (true) {
            if (peek() != '"') {
                throw error(pos >= s.length() ? "unexpected end of input, expected a member name"
                        : "expected a member name (a string) but found " + describe(s.charAt(pos)));
            }
            int keyAt = pos;
            String k = string();
            ws();
            expect(':', "expected ':' after a member name");
            ws();
            Object v = value();
            if (m.containsKey(k)) {
                throw new JsonException("duplicate member name \"" + shorten(k) + "\"", keyAt);
            }
            m.put(k, v);
            ws();
            char c = peek();
            if (c == ',') {
                pos++;
                ws();
            } else if (c == '}') {
                pos++;
                depth--;
                return m;
            } else {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        enter();
        pos++; // '['
        List<Object> l = new ArrayList<>();
        ws();
        if (peek() == ']') {
            pos++;
            depth--;
            return l;
        }
        while (true) {
            l.add(value());
            ws();
            char c = peek();
            if (c == ',') {
                pos++;
                ws();
            } else if (c == ']') {
                pos++;
                depth--;
                return l;
            } else {
                throw error("expected ',' or ']'");
            }
        }
    }

    private void enter() {
        if (++depth > maxDepth) {
            throw error("nesting deeper than " + maxDepth);
        }
    }

    private String string() {
        int start = pos;
        pos++; // opening quote
        StringBuilder sb = null; // only when the string has escapes
        int runStart = pos;
        while (true) {
            if (pos >= s.length()) {
                throw new JsonException("unterminated string starting", start);
            }
            char c = s.charAt(pos);
            if (c == '"') {
                String out;
                if (sb == null) {
                    out = s.substring(runStart, pos);
                } else {
                    out = sb.append(s, runStart, pos).toString();
                }
                pos++;
                return out;
            }
            if (c < 0x20) {
                throw error("unescaped control character " + describe(c) + " in string");
            }
            if (Character.isHighSurrogate(c)) {
                if (pos + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(pos + 1))) {
                    throw error("unpaired surrogate " + describe(c) + " in string");
                }
                pos += 2;
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                throw error("unpaired surrogate " + describe(c) + " in string");
            }
            if (c != '\\') {
                pos++;
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder();
            }
            sb.append(s, runStart, pos);
            int escAt = pos;
            pos++;
            if (pos >= s.length()) {
                throw new JsonException("unterminated string starting", start);
            }
            char e = s.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    char u = hex4();
                    if (Character.isHighSurrogate(u)) {
                        int lowAt = pos;
                        if (!s.startsWith("\\u", pos)) {
                            throw new JsonException("unpaired surrogate \\u" + hexOf(u) + " in string", escAt);
                        }
                        pos += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw new JsonException("\\u" + hexOf(u) + " is not followed by a low surrogate", lowAt);
                        }
                        sb.append(u).append(low);
                    } else if (Character.isLowSurrogate(u)) {
                        throw new JsonException("unpaired surrogate \\u" + hexOf(u) + " in string", escAt);
                    } else {
                        sb.append(u);
                    }
                }
                default -> throw new JsonException("invalid escape \\" + printable(e) + " in string", escAt);
            }
            runStart = pos;
        }
    }

    private char hex4() {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = pos < s.length() ? hexDigit(s.charAt(pos)) : -1;
            if (d < 0) {
                throw error("expected 4 hex digits after \\u");
            }
            v = (v << 4) | d;
            pos++;
        }
        return (char) v;
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        char c = peek();
        if (c == '0') {
            pos++;
            if (isDigit(peek())) {
                throw error("leading zeros are not allowed in numbers");
            }
        } else if (c >= '1' && c <= '9') {
            digits();
        } else {
            throw error("expected a digit");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            pos++;
            if (!isDigit(peek())) {
                throw error("expected a digit after the decimal point");
            }
            digits();
        }
        c = peek();
        if (c == 'e' || c == 'E') {
            integral = false;
            pos++;
            c = peek();
            if (c == '+' || c == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("expected a digit in the exponent");
            }
            digits();
        }
        String text = s.substring(start, pos);
        if (integral && pos - start <= 20) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException outOfRange) {
                // fall through to double
            }
        }
        double d = Double.parseDouble(text); // the grammar above guarantees a valid literal
        if (Double.isInfinite(d)) {
            throw new JsonException("number out of range", start);
        }
        return d;
    }

    private void digits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, pos)) {
            throw error("expected a value (invalid literal)");
        }
        pos += word.length();
        return v;
    }

    private void ws() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    private void expect(char c, String what) {
        if (pos >= s.length() || s.charAt(pos) != c) {
            throw error(what);
        }
        pos++;
    }

    private JsonException error(String what) {
        if (pos >= s.length() && !what.startsWith("unexpected end")) {
            what += " (unexpected end of input)";
        }
        return new JsonException(what, pos);
    }

    private static String describe(char c) {
        return "'" + printable(c) + "'";
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : "\\u" + hexOf(c);
    }

    private static String hexOf(char c) {
        return String.format(Locale.ROOT, "%04x", (int) c);
    }

    /** A name from the input for a message: at most 40 chars, controls escaped. */
    private static String shorten(String k) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < k.length() && i < 40; i++) {
            sb.append(printable(k.charAt(i)));
        }
        return k.length() > 40 ? sb + "..." : sb.toString();
    }
}
