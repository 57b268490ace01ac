package io.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.report.JsonReader.JsonException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link JsonReader}: values, escapes, numbers, malformed input with its messages, and the limits. */
class JsonReaderTest {

    private static JsonException fails(String json) {
        return assertThrows(JsonException.class, () -> JsonReader.parse(json), json);
    }

    @Test
    void literalsAndWhitespace() {
        assertEquals(Boolean.TRUE, JsonReader.parse("true"));
        assertEquals(Boolean.FALSE, JsonReader.parse(" \t\r\nfalse\n"));
        assertNull(JsonReader.parse("null"));
        assertEquals("x", JsonReader.parse("\"x\""));
    }

    @Test
    void objectsKeepOrderAndNest() {
        Object v = JsonReader.parse("{\"b\": 1, \"a\": [true, null, {\"c\": []}], \"e\": {}}");
        Map<?, ?> m = assertInstanceOf(LinkedHashMap.class, v);
        assertEquals(List.of("b", "a", "e"), List.copyOf(m.keySet()));
        assertEquals(1L, m.get("b"));
        List<?> a = assertInstanceOf(List.class, m.get("a"));
        assertEquals(3, a.size());
        assertEquals(Boolean.TRUE, a.get(0));
        assertNull(a.get(1));
        assertEquals(Map.of("c", List.of()), a.get(2));
        assertEquals(Map.of(), m.get("e"));
        assertEquals(List.of(), JsonReader.parse("[ ]"));
        assertEquals(Map.of("", ""), JsonReader.parse("{\"\":\"\"}"));
        assertTrue(((Map<?, ?>) JsonReader.parse("{\"k\": null}")).containsKey("k"), "a null member is kept");
    }

    @Test
    void allEscapes() {
        assertEquals("\" \\ / \b \f \n \r \t A \u00e9 \u2028 \u0000",
                JsonReader.parse("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u00E9 \\u2028 \\u0000\""));
        assertEquals("caf\u00e9 \u20ac", JsonReader.parse("\"caf\u00e9 \u20ac\""), "raw non-ASCII passes through");
    }

    @Test
    void surrogatePairs() {
        String grin = new String(Character.toChars(0x1F600));
        assertEquals(grin, JsonReader.parse("\"\\ud83d\\ude00\""));
        assertEquals("a" + grin + "b", JsonReader.parse("\"a\\uD83D\\uDE00b\""));
        assertEquals(grin, JsonReader.parse("\"" + grin + "\""), "a raw pair");
    }

    @Test
    void unpairedSurrogatesAreErrors() {
        assertEquals("unpaired surrogate \\ud83d in string at offset 1", fails("\"\\ud83d\"").getMessage());
        assertEquals("\\ud83d is not followed by a low surrogate at offset 7", fails("\"\\ud83d\\u0041\"").getMessage());
        assertEquals("unpaired surrogate \\ude00 in string at offset 1", fails("\"\\ude00\"").getMessage());
        assertEquals("unpaired surrogate '\\ud83d' in string at offset 2", fails("\"x\ud83d\"").getMessage());
        assertEquals("unpaired surrogate '\\ude00' in string at offset 1", fails("\"\ude00\"").getMessage());
    }

    @Test
    void badStrings() {
        assertEquals("invalid escape \\x in string at offset 2", fails("\"a\\x\"").getMessage());
        assertEquals("invalid escape \\' in string at offset 1", fails("\"\\'\"").getMessage());
        assertEquals("expected 4 hex digits after \\u at offset 5", fails("\"\\u12\"").getMessage());
        assertEquals("expected 4 hex digits after \\u at offset 5", fails("\"\\u12G4\"").getMessage());
        assertEquals("expected 4 hex digits after \\u at offset 3", fails("\"\\u+123\"").getMessage());
        assertEquals("unescaped control character '\\u000a' in string at offset 2", fails("\"a\nb\"").getMessage());
        assertEquals("unescaped control character '\\u0000' in string at offset 1", fails("\"\u0000\"").getMessage());
        assertEquals("unterminated string starting at offset 0", fails("\"abc").getMessage());
        assertEquals("unterminated string starting at offset 0", fails("\"abc\\").getMessage());
        assertEquals("expected a value but found ''' at offset 0", fails("'a'").getMessage());
    }

    @Test
    void integersAreLongs() {
        assertEquals(0L, JsonReader.parse("0"));
        assertEquals(0L, JsonReader.parse("-0"));
        assertEquals(-17L, JsonReader.parse("-17"));
        assertEquals(Long.MAX_VALUE, JsonReader.parse("9223372036854775807"));
        assertEquals(Long.MIN_VALUE, JsonReader.parse("-9223372036854775808"));
        assertEquals(4294967295L, JsonReader.parse("4294967295"));
    }

    @Test
    void otherNumbersAreDoubles() {
        assertEquals(9.223372036854775808E18, JsonReader.parse("9223372036854775808"), "beyond long");
        assertEquals(-1e30, JsonReader.parse("-1000000000000000000000000000000"));
        assertEquals(1.5, JsonReader.parse("1.5"));
        assertEquals(100.0, JsonReader.parse("1e2"), "an exponent makes a double");
        assertEquals(1.0, JsonReader.parse("1.0"));
        assertEquals(-1250.0, JsonReader.parse("-1.25e+3"));
        assertEquals(0.01, JsonReader.parse("1E-2"));
        assertEquals(-0.0, JsonReader.parse("-0.0"));
        assertEquals(0.0, JsonReader.parse("1e-400"), "underflow is zero");
        assertEquals(1.7976931348623157E308, JsonReader.parse("1.7976931348623157e308"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "01|leading zeros are not allowed in numbers at offset 1",
        "-01|leading zeros are not allowed in numbers at offset 2",
        "-|expected a digit (unexpected end of input) at offset 1",
        "-a|expected a digit at offset 1",
        "1.|expected a digit after the decimal point (unexpected end of input) at offset 2",
        ".5|expected a value but found '.' at offset 0",
        "1.e3|expected a digit after the decimal point at offset 2",
        "1e|expected a digit in the exponent (unexpected end of input) at offset 2",
        "1e+|expected a digit in the exponent (unexpected end of input) at offset 3",
        "+1|expected a value but found '+' at offset 0",
        "0x10|expected end of input after the top-level value at offset 1",
        "NaN|expected a value but found 'N' at offset 0",
        "Infinity|expected a value but found 'I' at offset 0",
        "-Infinity|expected a digit at offset 1",
        "1e400|number out of range at offset 0",
        "[1, -2e999]|number out of range at offset 4",
    })
    void badNumbers(String json, String message) {
        assertEquals(message, fails(json).getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``|unexpected end of input, expected a value at offset 0",
        "`   `|unexpected end of input, expected a value at offset 3",
        "{\"a\": 1 \"b\": 2}|expected ',' or '}' at offset 8",
        "{\"a\": 1|expected ',' or '}' (unexpected end of input) at offset 7",
        "[1 2]|expected ',' or ']' at offset 3",
        "[1,]|expected a value but found ']' at offset 3",
        "[1|expected ',' or ']' (unexpected end of input) at offset 2",
        "[|unexpected end of input, expected a value at offset 1",
        "{\"a\": 1,}|expected a member name (a string) but found '}' at offset 8",
        "{,}|expected a member name (a string) but found ',' at offset 1",
        "{a: 1}|expected a member name (a string) but found 'a' at offset 1",
        "{'a': 1}|expected a member name (a string) but found ''' at offset 1",
        "{\"a\" 1}|expected ':' after a member name at offset 5",
        "{\"a\":}|expected a value but found '}' at offset 5",
        "{\"a\": 1, \"a\": 2}|duplicate member name \"a\" at offset 9",
        "{|unexpected end of input, expected a member name at offset 1",
        "tru|expected a value (invalid literal) at offset 0",
        "True|expected a value but found 'T' at offset 0",
        "nul|expected a value (invalid literal) at offset 0",
        "{} {}|expected end of input after the top-level value at offset 3",
        "1 2|expected end of input after the top-level value at offset 2",
        "[1] // comment|expected end of input after the top-level value at offset 4",
        "]|expected a value but found ']' at offset 0",
    })
    void malformedDocuments(String json, String message) {
        assertEquals(message, fails(json).getMessage());
    }

    @Test
    void onlyJsonWhitespace() {
        assertEquals("expected a value but found '\\u00a0' at offset 0", fails("\u00a01").getMessage());
        assertEquals("expected a value but found '\\u000c' at offset 1", fails("[\f1]").getMessage());
        assertEquals("expected a value but found '\\ufeff' at offset 0", fails("\ufeff{}").getMessage(), "no BOM");
    }

    @Test
    void errorsCarryTheirOffset() {
        JsonException e = fails("{\"a\": [1, 2,, 3]}");
        assertEquals(12, e.offset());
        assertInstanceOf(IllegalArgumentException.class, e, "callers may catch IllegalArgumentException");
    }

    @Test
    void duplicateNameInMessageIsShortenedAndEscaped() {
        String k = "k\\n" + "x".repeat(100);
        String msg = fails("{\"" + k + "\": 1, \"" + k + "\": 2}").getMessage();
        assertTrue(msg.startsWith("duplicate member name \"k\\u000a" + "x".repeat(38) + "...\" at offset "), msg);
    }

    @Test
    void depthLimit() {
        String ok = "[".repeat(64) + "]".repeat(64);
        assertEquals(64, depthOf(JsonReader.parse(ok)));
        String deep = "[".repeat(65) + "]".repeat(65);
        assertEquals("nesting deeper than 64 at offset 64", fails(deep).getMessage());
        String mixed = "{\"a\":[".repeat(32) + "{}" + "]}".repeat(32);
        assertEquals("nesting deeper than 64 at offset " + (6 * 32), fails(mixed).getMessage());
        assertEquals(3, depthOf(JsonReader.parse("[[[]]]", 3, 100)));
        assertThrows(JsonException.class, () -> JsonReader.parse("[[[[]]]]", 3, 100));
        assertEquals(1L, JsonReader.parse("1", 1, 1), "scalars have depth 0");
    }

    private static int depthOf(Object v) {
        int d = 0;
        while (v instanceof List<?> l) {
            d++;
            v = l.isEmpty() ? null : l.getFirst();
        }
        return d;
    }

    @Test
    void sizeLimit() {
        assertEquals("input of 6 chars exceeds the limit of 5 at offset 0",
                assertThrows(JsonException.class, () -> JsonReader.parse("[1,22]", 64, 5)).getMessage());
        assertEquals(List.of(1L, 2L), JsonReader.parse("[1,2]", 64, 5));
        String big = "\"" + "a".repeat(JsonReader.DEFAULT_MAX_CHARS) + "\"";
        assertThrows(JsonException.class, () -> JsonReader.parse(big));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("1", 0, 10));
        assertThrows(NullPointerException.class, () -> JsonReader.parse(null));
    }

    @Test
    void hostileInputsFailFast() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            int n = JsonReader.DEFAULT_MAX_CHARS - 10;
            assertThrows(JsonException.class, () -> JsonReader.parse("[".repeat(n)), "no stack overflow");
            assertThrows(JsonException.class, () -> JsonReader.parse("{\"a\":".repeat(n / 5)));
            assertThrows(JsonException.class, () -> JsonReader.parse("1".repeat(n)), "out of double range");
            assertInstanceOf(Double.class, JsonReader.parse("0." + "1".repeat(n)));
            assertEquals(n, ((String) JsonReader.parse("\"" + "\\n".repeat(n / 2) + "\"")).length() * 2);
            assertThrows(JsonException.class, () -> JsonReader.parse("\"" + "\\u".repeat(n / 2)));
            assertEquals(n / 2, ((List<?>) JsonReader.parse("[" + "0,".repeat(n / 2 - 1) + "0]")).size());
        });
    }

    @Test
    void parseObjectRequiresAnObject() {
        assertEquals(Map.of("a", 1L), JsonReader.parseObject("{\"a\":1}"));
        assertEquals("expected a JSON object as the top-level value at offset 0",
                assertThrows(JsonException.class, () -> JsonReader.parseObject("[1]")).getMessage());
        assertThrows(JsonException.class, () -> JsonReader.parseObject("null"));
    }

    @Test
    void readsWhatJsonWriterWrites() {
        String tricky = "q\" b\\ nl\n cr\r tab\t bs\b ff\f ctl\u0001 ls\u2028 ps\u2029 \ud83d\ude00 \u00e9";
        String json = new JsonWriter().beginObject()
                .field(tricky, tricky)
                .field("long", Long.MIN_VALUE)
                .field("double", 0.1)
                .field("big", 1.5e300)
                .field("nan", Double.NaN)
                .field("bool", true)
                .name("array").beginArray().value(1).value("two").nullValue().beginObject().endObject().endArray()
                .endObject().toJson();
        Map<String, Object> m = JsonReader.parseObject(json);
        assertEquals(tricky, m.get(tricky));
        assertEquals(Long.MIN_VALUE, m.get("long"));
        assertEquals(0.1, m.get("double"));
        assertEquals(1.5e300, m.get("big"));
        assertNull(m.get("nan"));
        assertEquals(Boolean.TRUE, m.get("bool"));
        assertEquals(java.util.Arrays.asList(1L, "two", null, Map.of()), m.get("array"));
    }
}
