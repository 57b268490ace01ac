package io.jperf.bench.gate;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate reads JSON through core's one reader: the committed baseline, JMH's string numbers, refusals. */
class JsonTest {
    @Test
    void theCommittedBaselineReadsWithEveryEntrysRatio() throws Exception {
        Map<String, Object> baseline = Json.object(Json.parse(Files.readString(Path.of("baseline.json"))), "baseline");
        List<Object> entries = Json.array(baseline.get("entries"), "entries");
        assertTrue(entries.size() >= 9, "entries: " + entries.size());
        for (Object e : entries) {
            double ratio = Json.number(Json.object(e, "entry").get("ratio"), "ratio");
            assertTrue(ratio > 0.5 && ratio < 5, "ratio " + ratio);
        }
    }

    @Test
    void integersAndJmhsStringNumbersAreNumbers() {
        Map<String, Object> m = Json.object(Json.parse("{\"a\": 3, \"b\": 2.5, \"c\": \"NaN\"}"), "m");
        assertEquals(3.0, Json.number(m.get("a"), "a"));
        assertEquals(2.5, Json.number(m.get("b"), "b"));
        assertTrue(Double.isNaN(Json.number(m.get("c"), "c")));
    }

    @Test
    void malformedJsonAndWrongTypesAreRefusedByName() {
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1} x"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.number("x", "ratio"));
        assertEquals("ratio: expected a number, got x", e.getMessage());
    }

    @Test
    void quotingEscapesAsJsonNeeds() {
        assertEquals("\"a\\\"b\\\\c\\n\"", Json.quote("a\"b\\c\n"));
    }
}
