package io.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.result.BandwidthResult.Unit;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReportTest {
    private static final byte[] GID = {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    @Test
    void allSizesRunIsOneDocumentWithOneResultPerSize() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).allSizes(true).device("rxe\"0").build();
        TestHeader h = TestHeader.of(o, "rxe\"0", 1024, LinkType.ETHERNET, 1, 0, "OFF", false);
        JsonReport.Builder b = JsonReport.builder(o, h)
                .local(List.of(new EndpointInfo(0, 0x11, 0x22, 0xdeadbeef, 0x7f00L, GID, 1)))
                .remote(List.of(new EndpointInfo(0, 0x33, 0x44, 5, 6, GID, 1)));
        for (long size : o.params().messageSizes()) {
            b.result(new BandwidthResult(size, 5000, 1.5, 1.25, 0.5, Unit.MIB_PER_SEC));
        }
        b.section("path", w -> w.beginObject().field("egress", "eth1").endObject());
        Map<String, Object> doc = obj(JsonReader.parse(b.build().toJson()));

        assertEquals("jperf", doc.get("tool"));
        assertEquals("ib_write_bw", doc.get("test"));
        assertEquals(Boolean.TRUE, obj(doc.get("parameters")).get("all_sizes"));
        assertNull(obj(doc.get("parameters")).get("mtu"));
        assertEquals("rxe\"0", obj(doc.get("header")).get("device"));
        assertEquals("Ethernet", obj(doc.get("header")).get("link_type"));
        Map<String, Object> local = obj(list(doc.get("local")).getFirst());
        assertEquals(0xdeadbeefL, local.get("rkey"), "rkey is unsigned");
        assertEquals("fe80:0000:0000:0000:0000:0000:0000:0001", local.get("gid"));
        assertEquals(0x33L, obj(list(doc.get("remote")).getFirst()).get("qpn"));
        List<Object> results = list(doc.get("results"));
        assertEquals(23, results.size());
        assertEquals(2L, obj(results.getFirst()).get("size_bytes"));
        assertEquals(1.25, obj(results.getLast()).get("bw_average"));
        assertEquals("MiB/sec", obj(results.getLast()).get("bw_unit"));
        assertEquals("eth1", obj(doc.get("path")).get("egress"));
    }

    @Test
    void latencyResultsAndNonFiniteValues() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).build();
        TestHeader h = TestHeader.of(o, "mlx5_0", 4096, LinkType.IB, -1, 220, "OFF", false);
        String json = JsonReport.builder(o, h)
                .result(new LatencyResult(2, 1000, 1.1, 2.2, 1.5, Double.NaN, 0.25, 2.0, Double.POSITIVE_INFINITY))
                .build().toJson();
        Map<String, Object> r = obj(list(obj(JsonReader.parse(json)).get("results")).getFirst());
        assertEquals(1.1, r.get("t_min_us"));
        assertTrue(r.containsKey("t_avg_us"));
        assertNull(r.get("t_avg_us"), "NaN is written as null");
        assertNull(r.get("p99_9_us"));
        assertTrue(list(obj(JsonReader.parse(json)).get("local")).isEmpty());
    }

    @Test
    void sectionNamesCannotShadowTheReport() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).build();
        TestHeader h = TestHeader.of(o, "d", 4096, LinkType.IB, -1, 0, "OFF", false);
        assertThrows(IllegalArgumentException.class, () -> JsonReport.builder(o, h).section("results", w -> { }));
    }

    @Test
    void writerEscapesQuotesBackslashesAndControlCharacters() {
        String tricky = "a\"b\\c\nd\te\u0001f\u001fg\u2028h/é";
        String json = new JsonWriter().beginObject().field("k\"ey", tricky).endObject().toJson();
        assertEquals("{\n  \"k\\\"ey\": \"a\\\"b\\\\c\\nd\\te\\u0001f\\u001fg\\u2028h/é\"\n}\n", json);
        assertEquals(tricky, obj(JsonReader.parse(json)).get("k\"ey"));
    }

    @Test
    void writerRefusesMalformedDocuments() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().value(1));
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginArray().endObject());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().toJson());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().value(1).value(2));
        assertEquals("[\n  1,\n  null,\n  true,\n  []\n]\n", new JsonWriter().beginArray().value(1)
                .value(Double.NEGATIVE_INFINITY).value(true).beginArray().endArray().endArray().toJson());
    }
}
