package io.jperf.sweep;

import static io.jperf.sweep.SweepFixtures.RAIL0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;
import io.jperf.report.JsonReader;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class SweepJsonTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    @Test
    void theSweepIsOneValidDocumentWithEveryRow() {
        SweepResult r = SweepFixtures.bwRailsCm(true);
        String json = SweepJson.toJson(r);
        Map<String, Object> doc = JsonReader.parseObject(json);
        assertEquals("write-bw", doc.get("kind"));
        assertEquals("10.20.0.2", doc.get("peer"));
        assertEquals(List.of("rail", "rdma_cm", "size"), doc.get("dimensions"));
        assertEquals(Map.of("rail", List.of("rxe0>10.20.0.2", "rxe1>10.20.1.2"), "rdma_cm", List.of("off", "on"),
                "size", List.of("4K", "64K")), doc.get("dimension_values"));
        assertEquals("2025-06-02T09:14:05Z", doc.get("started"));
        assertEquals(r.elapsed().toMillis(), doc.get("elapsed_ms"));
        assertEquals(Map.of("points", 8L, "ran", 7L, "failed", 1L, "inconsistent", 4L), doc.get("counts"));
        assertEquals(1L, doc.get("best"));
        assertEquals(5L, doc.get("worst"));
        assertEquals("Gb/s", obj(doc.get("headline")).get("unit"));
        assertEquals(true, obj(doc.get("headline")).get("higher_is_better"));
        List<Object> rows = list(doc.get("rows"));
        assertEquals(8, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals((long) i, obj(rows.get(i)).get("index"));
        }
    }

    @Test
    void aRowThatRanEmbedsItsWholeResult() {
        SweepResult r = SweepFixtures.bwRailsCm(true);
        Map<String, Object> row = obj(list(JsonReader.parseObject(SweepJson.toJson(r)).get("rows")).get(4));
        SweepRow expected = r.rows().get(4);
        assertEquals(true, row.get("ok"));
        assertEquals(false, row.get("consistent"));
        assertEquals(Map.of("rail", "rxe1>10.20.1.2", "rdma_cm", "off", "size", "4K"), row.get("dimensions"));
        assertEquals(expected.headline().getAsDouble(), (Double) row.get("headline"), 1e-9);
        assertNull(row.get("error"));
        assertEquals(expected.path().orElseThrow(), row.get("path"));
        List<Object> verdicts = list(row.get("verdicts"));
        assertEquals(expected.verdicts().size(), verdicts.size());
        assertEquals("F2", obj(verdicts.getFirst()).get("id"));
        assertEquals("ERROR", obj(verdicts.getFirst()).get("severity"));
        assertTrue(((String) obj(verdicts.getFirst()).get("fixHint")).contains("policy routing"));
        // the embedded result is exactly the point's own JSON document
        assertEquals(JsonReader.parse(expected.result().orElseThrow().toJson()), row.get("result"));
    }

    @Test
    void aFailedRowHasItsErrorAndVerdictsAndNoResult() {
        Map<String, Object> row = obj(list(JsonReader.parseObject(SweepJson.toJson(SweepFixtures.bwRailsCm(true)))
                .get("rows")).get(7));
        assertEquals(false, row.get("ok"));
        assertNull(row.get("headline"));
        assertNull(row.get("result"));
        assertEquals(SweepFixtures.CM_UNREACHABLE, row.get("error"));
        assertFalse(list(row.get("verdicts")).isEmpty());
    }

    @Test
    void awkwardTextStaysValidJsonAndBestWorstAreNullWithoutContrast() {
        SweepChoice c = SweepFixtures.bwChoice(0, RAIL0, "rail", "rxe0>\"quoted\"\\back");
        String error = "line one\n\ttab \"quote\" \u0001 control \u2028 separator";
        SweepResult r = SweepFixtures.sweep(TestKind.WRITE_BW,
                List.of(SweepRow.failed(c, error, List.of(), Optional.empty(), Duration.ofMillis(5))));
        Map<String, Object> doc = JsonReader.parseObject(SweepJson.toJson(r));
        Map<String, Object> row = obj(list(doc.get("rows")).getFirst());
        assertEquals(error, row.get("error"));
        assertEquals("rxe0>\"quoted\"\\back", obj(row.get("dimensions")).get("rail"));
        assertTrue(doc.containsKey("best") && doc.get("best") == null);
        assertTrue(doc.containsKey("worst") && doc.get("worst") == null);
        assertNull(row.get("path"));
    }

    @Test
    void latencyIsLowerIsBetter() {
        Map<String, Object> doc = JsonReader.parseObject(SweepJson.toJson(SweepFixtures.lat()));
        assertEquals("write-lat", doc.get("kind"));
        assertEquals("us", obj(doc.get("headline")).get("unit"));
        assertEquals(false, obj(doc.get("headline")).get("higher_is_better"));
        assertEquals(1L, doc.get("best"));
        assertEquals(2L, doc.get("worst"));
    }
}
