package io.jperf.bench.gate;

import io.jperf.report.JsonReader;
import io.jperf.report.JsonWriter;

import java.util.List;
import java.util.Map;

/**
 * The gate's view of JSON (JMH's result file and bench/baseline.json) through jperf's one reader and
 * writer ({@link JsonReader}, {@link JsonWriter}): typed accessors that name what they expected.
 */
final class Json {
    private Json() {
    }

    /** Any size: a JMH result file of a long suite can exceed the reader's default cap for untrusted input. */
    static Object parse(String text) {
        return JsonReader.parse(text, JsonReader.DEFAULT_MAX_DEPTH, Integer.MAX_VALUE);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value, String what) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalArgumentException(what + ": expected a JSON object, got " + value);
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value, String what) {
        if (value instanceof List<?> list) {
            return (List<Object>) list;
        }
        throw new IllegalArgumentException(what + ": expected a JSON array, got " + value);
    }

    /** A number; JMH writes "NaN" and "Infinity" as strings. */
    static double number(Object value, String what) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw new IllegalArgumentException(what + ": expected a number, got " + value);
    }

    static String quote(String s) {
        return new JsonWriter().value(s).toJson().stripTrailing();
    }
}
