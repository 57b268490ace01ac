package io.jperf.matrix;

import io.jperf.report.JsonReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatrixAnalysisTest {
    private static final List<String> RAILS = List.of("mlx5_0", "mlx5_1");

    @Test
    void oneHostsRailSlowOnEveryPairIsRankedFirstAndAlone() {
        ResultMatrix m = fill(8, RAILS, t -> (t.client() == 3 || t.server() == 3) && t.clientRail() == 1 ? 41 : 97 + t.client() % 3);
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("0.8xmedian"));
        assertEquals(1, a.suspects().size(), a.suspects().toString());
        MatrixAnalysis.Suspect first = a.suspects().getFirst();
        assertEquals(MatrixAnalysis.Kind.HOST_RAIL, first.kind());
        assertEquals(3, first.host());
        assertEquals(1, first.rail());
        assertEquals(7, first.bad());
        assertEquals(7, first.tests());
        assertEquals(7, a.badLinks().size());
        assertTrue(a.failedThreshold());
        assertEquals("host h3 rail mlx5_1: bad on 7 of 7 pairs, worst 41.00 Gb/s", a.describe(first));
    }

    @Test
    void oneBadLinkIsALinkNotAHost() {
        ResultMatrix m = fill(6, RAILS, t -> pair(t, 2, 5) && t.clientRail() == 0 ? 50 : 100);
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("0.8xmedian"));
        assertEquals(1, a.suspects().size());
        MatrixAnalysis.Suspect s = a.suspects().getFirst();
        assertEquals(MatrixAnalysis.Kind.LINK, s.kind());
        assertEquals(java.util.Set.of(2, 5), java.util.Set.of(s.host(), s.peer()));
        assertEquals(0, s.rail());
    }

    @Test
    void aHostBadOnEveryRailIsTheHost() {
        ResultMatrix m = fill(6, RAILS, t -> t.client() == 4 || t.server() == 4 ? 30 : 100);
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("60"));
        assertEquals(1, a.suspects().size(), a.suspects().toString());
        assertEquals(MatrixAnalysis.Kind.HOST, a.suspects().getFirst().kind());
        assertEquals(4, a.suspects().getFirst().host());
        assertEquals(10, a.suspects().getFirst().bad());
    }

    @Test
    void aRailBadEverywhereIsTheRail() {
        ResultMatrix m = fill(6, RAILS, t -> t.clientRail() == 0 ? 30 : 100);
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("60"));
        assertEquals(1, a.suspects().size(), a.suspects().toString());
        assertEquals(MatrixAnalysis.Kind.RAIL, a.suspects().getFirst().kind());
        assertEquals(0, a.suspects().getFirst().rail());
    }

    @Test
    void twoSuspectsAreRankedByShareThenCount() {
        // host 1 rail 0 bad on every pair; host 2 rail 1 bad on 4 of its 5 pairs
        ResultMatrix m = fill(6, RAILS, t -> (t.clientRail() == 0 && (t.client() == 1 || t.server() == 1))
                || (t.clientRail() == 1 && (t.client() == 2 || t.server() == 2) && !pair(t, 2, 0)) ? 20 : 100);
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("0.5xmedian"));
        assertEquals(2, a.suspects().size(), a.suspects().toString());
        assertEquals(List.of(1, 2), a.suspects().stream().map(MatrixAnalysis.Suspect::host).toList());
        assertEquals(List.of(0, 1), a.suspects().stream().map(MatrixAnalysis.Suspect::rail).toList());
    }

    @Test
    void latencyAboveAnAbsoluteLimitIsBadAndFailuresComeFirst() {
        ResultMatrix m = new ResultMatrix(hosts(4), List.of("rxe0"), RailMode.PER_RAIL, Metric.LATENCY_US);
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, 4, 1, RailMode.PER_RAIL);
        s.rounds().forEach(r -> r.forEach(t -> {
            if (pair(t, 0, 1)) {
                m.fail(t, "connect: timeout\nsecond line", (short) 0);
            } else {
                m.record(t, pair(t, 2, 3) ? 9.5 : 2.0, (short) 0);
            }
        }));
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("5"));
        assertEquals(2, a.badLinks().size());
        assertTrue(a.badLinks().getFirst().failed());
        assertEquals("connect: timeout", a.badLinks().getFirst().error());
        assertEquals(9.5, a.badLinks().get(1).value(), 1e-6);
        assertEquals(1, a.failed());
        assertEquals(6, a.tests());
    }

    @Test
    void withoutAThresholdOnlyFailuresAreBad() {
        ResultMatrix m = fill(4, RAILS, t -> t.client() == 0 ? 10 : 100);
        MatrixAnalysis a = MatrixAnalysis.of(m, null);
        assertFalse(a.failedThreshold());
        assertTrue(a.suspects().isEmpty());
        assertTrue(MatrixTextReport.render(a, "t").contains("result: PASS"));
    }

    @Test
    void devicePairsBlameTheRailOfEachEnd() {
        ResultMatrix m = new ResultMatrix(hosts(4), RAILS, RailMode.DEVICE_PAIRS, Metric.BANDWIDTH_GBPS);
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, 4, 2, RailMode.DEVICE_PAIRS);
        s.rounds().forEach(r -> r.forEach(t -> m.record(t,
                (t.client() == 2 && t.clientRail() == 0) || (t.server() == 2 && t.serverRail() == 0) ? 10 : 100, (short) 0)));
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("0.8xmedian"));
        assertEquals(1, a.suspects().size(), a.suspects().toString());
        assertEquals(2, a.suspects().getFirst().host());
        assertEquals(0, a.suspects().getFirst().rail());
    }

    @Test
    void reportsNameTheSuspectAndStaySelfContained() {
        ResultMatrix m = fill(5, RAILS, t -> (t.client() == 3 || t.server() == 3) && t.clientRail() == 1 ? 41 : 100);
        m.fail(new PairTest(0, 0, 1, 0, 0), "the peer <went> away", VerdictMask.of(List.of()));
        MatrixAnalysis a = MatrixAnalysis.of(m, Threshold.parse("0.8xmedian"));

        String text = MatrixTextReport.render(a, "write-bw all-pairs");
        assertTrue(text.contains(" 1. HOST_RAIL host h3 rail mlx5_1: bad on 4 of 4 pairs"), text);
        assertTrue(text.contains("h0 -> h1 rail mlx5_0: FAILED the peer <went> away"), text);
        assertTrue(text.contains("result: FAIL (5 bad links)"), text);
        assertTrue(text.contains(" 2. LINK      link h0:mlx5_0 -> h1:mlx5_0: failed"), text);

        Map<String, Object> json = JsonReader.parseObject(MatrixJson.render(a, "write-bw all-pairs"));
        assertEquals(true, json.get("threshold_failed"));
        List<?> suspects = (List<?>) json.get("suspects");
        Map<?, ?> first = (Map<?, ?>) suspects.getFirst();
        assertEquals("HOST_RAIL", first.get("kind"));
        assertEquals("h3", first.get("host"));
        assertEquals("mlx5_1", first.get("rail"));
        assertEquals(20, ((List<?>) json.get("points")).size());

        String html = MatrixHtmlReport.render(a, "write-bw <all-pairs>");
        assertFalse(html.contains("src="), "no external assets");
        assertFalse(html.contains("href="), "no external assets");
        assertFalse(html.contains("<script"));
        assertTrue(html.contains("write-bw &lt;all-pairs&gt;"));
        assertEquals(2, html.split("<table class=\"hm\">", -1).length - 1, "one heatmap per rail");
        assertTrue(html.contains("title=\"h3 -&gt; h4 rail mlx5_1: 41.00 Gb/s\"") || html.contains("title=\"h4 -&gt; h3 rail mlx5_1: 41.00 Gb/s\""));
        assertTrue(html.contains("class=\"failed bad\" title=\"h0 -&gt; h1 rail mlx5_0: FAILED the peer &lt;went&gt; away\""), html);
    }

    @Test
    void colourRunsFromGreenAtTheMedianToRedAtHalf() {
        assertEquals("hsl(120,70%,55%)", MatrixHtmlReport.colour(100, 100, Metric.BANDWIDTH_GBPS));
        assertEquals("hsl(0,70%,45%)", MatrixHtmlReport.colour(50, 100, Metric.BANDWIDTH_GBPS));
        assertEquals("hsl(0,70%,45%)", MatrixHtmlReport.colour(4, 2, Metric.LATENCY_US));
    }

    @Test
    void storeTakesWhatItsEstimateSays() {
        ResultMatrix m = new ResultMatrix(hosts(10), RAILS, RailMode.PER_RAIL, Metric.BANDWIDTH_GBPS);
        assertEquals(ResultMatrix.bytesFor(10, 2), m.bytesUsed());
        assertEquals(10L * 10 * 2 * 7, m.bytesUsed());
    }

    @Test
    void thresholdParsing() {
        assertEquals(new Threshold(0.8, true), Threshold.parse("0.8xmedian"));
        assertEquals(new Threshold(80, false), Threshold.parse(" 80 "));
        assertEquals("0.8xmedian", Threshold.parse("0.8xmedian").toString());
        assertEquals(80, Threshold.parse("0.8xmedian").limit(100), 1e-9);
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Threshold.parse("fast")).getMessage().contains("0.8xmedian"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Threshold.parse("-1"));
    }

    static List<String> hosts(int n) {
        List<String> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            h.add("h" + i);
        }
        return h;
    }

    private static boolean pair(PairTest t, int a, int b) {
        return t.client() == a && t.server() == b || t.client() == b && t.server() == a;
    }

    private static ResultMatrix fill(int n, List<String> rails, ToDoubleFunction<PairTest> value) {
        ResultMatrix m = new ResultMatrix(hosts(n), rails, RailMode.PER_RAIL, Metric.BANDWIDTH_GBPS);
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, n, rails.size(), RailMode.PER_RAIL);
        s.rounds().forEach(r -> r.forEach(t -> m.record(t, value.applyAsDouble(t), (short) 0)));
        return m;
    }
}
