package io.jperf.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

import org.junit.jupiter.api.Test;

/** The noise rule: one run per choice names best and worst only beyond the stated threshold. */
class SweepRankingTest {

    /** write-bw choices at 64K with these averages (MiB/s), one run each. */
    private static SweepResult bw(double... mib) {
        List<SweepRow> rows = new ArrayList<>();
        for (double m : mib) {
            rows.add(SweepFixtures.bwRow(SweepFixtures.bwChoice(rows.size(), SweepFixtures.RAIL0, "gid",
                    Integer.toString(rows.size())), m));
        }
        return SweepFixtures.sweep(TestKind.WRITE_BW, rows);
    }

    /** write-lat choices at 2 B with these t_typical (us). */
    private static SweepResult lat(double... us) {
        List<SweepRow> rows = new ArrayList<>();
        for (double u : us) {
            SequencedMap<String, String> d = new LinkedHashMap<>();
            d.put("tclass", Integer.toString(rows.size()));
            SweepChoice c = SweepFixtures.choice(rows.size(), d, TestOptions.builder(TestKind.WRITE_LAT)
                    .serverHost(SweepFixtures.PEER).build());
            rows.add(SweepFixtures.latRow(c, SweepFixtures.healthyRecord(SweepFixtures.RAIL0, 0),
                    SweepFixtures.peerRecord(SweepFixtures.RAIL0, 0), List.of(SweepFixtures.latency(2, u)),
                    Duration.ofSeconds(1)));
        }
        return SweepFixtures.sweep(TestKind.WRITE_LAT, rows);
    }

    @Test
    void anElevenPercentGapFromOneRunEachIsNotAWorst() {
        // the case: 2000 vs 1780 MiB/s, 11 % apart, one run each
        SweepResult r = bw(2000, 1780, 1950);
        SweepRanking k = r.ranking();
        assertEquals(SweepRanking.Status.WITHIN_NOISE, k.status());
        assertEquals(0.11, k.gap(), 1e-9);
        assertTrue(r.best().isEmpty() && r.worst().isEmpty(), "neither best nor worst");
        assertEquals("not ranked: one run each, within noise (the 3 choices at 64K are within 11 % of each other; "
                + "threshold 20 %)", k.summary());
    }

    @Test
    void aGapBeyondTheThresholdNamesBestAndWorst() {
        SweepResult r = bw(2000, 1500, 1950);
        SweepRanking k = r.ranking();
        assertEquals(SweepRanking.Status.RANKED, k.status());
        assertEquals(0, r.rows().indexOf(r.best().orElseThrow()));
        assertEquals(1, r.rows().indexOf(r.worst().orElseThrow()));
        assertEquals(0.25, k.gap(), 1e-9);
        assertTrue(k.summary().startsWith("ranked: the worst of the 3 choices at"), k.summary());
        assertTrue(k.summary().contains("25 % below the best, beyond the 20 % noise threshold"), k.summary());
    }

    @Test
    void theThresholdIsExclusiveAndCanBeChosen() {
        SweepResult atThreshold = bw(2000, 1600);
        assertEquals(SweepRanking.Status.WITHIN_NOISE, SweepRanking.of(atThreshold).status(), "20 % is not beyond 20 %");
        assertEquals(SweepRanking.Status.RANKED, SweepRanking.of(atThreshold, 0.05).status());
        assertEquals(SweepRanking.Status.RANKED, SweepRanking.of(bw(2000, 1780), 0).status(), "threshold 0: any gap");
        assertThrows(IllegalArgumentException.class, () -> SweepRanking.of(atThreshold, -0.1));
        assertThrows(IllegalArgumentException.class, () -> SweepRanking.of(atThreshold, Double.NaN));
    }

    @Test
    void latencyGapIsMeasuredAboveTheBest() {
        SweepRanking close = lat(7.42, 7.94).ranking();
        assertEquals(SweepRanking.Status.WITHIN_NOISE, close.status(), "7 % above");
        SweepResult far = lat(7.42, 9.64, 7.5);
        SweepRanking k = far.ranking();
        assertEquals(SweepRanking.Status.RANKED, k.status());
        assertEquals(0, far.rows().indexOf(far.best().orElseThrow()), "lowest latency is best");
        assertEquals(1, far.rows().indexOf(far.worst().orElseThrow()));
        assertEquals((9.64 - 7.42) / 7.42, k.gap(), 1e-9);
        assertTrue(k.summary().contains("above the best"), k.summary());
        assertTrue(k.rule().contains("more than 20 % above the best"), k.rule());
    }

    @Test
    void oneChoiceOrEqualFiguresAreNotRanked() {
        SweepRanking one = bw(2000).ranking();
        assertEquals(SweepRanking.Status.NOT_RANKED, one.status());
        assertTrue(one.summary().startsWith("not ranked: fewer than two choices ran"), one.summary());
        SweepRanking equal = bw(2000, 2000).ranking();
        assertEquals(SweepRanking.Status.NOT_RANKED, equal.status());
        assertTrue(equal.summary().contains("have the same figure"), equal.summary());
        SweepRanking none = SweepFixtures.sweep(TestKind.WRITE_BW, List.of()).ranking();
        assertEquals(SweepRanking.Status.NOT_RANKED, none.status());
        assertFalse(none.best().isPresent());
    }

    @Test
    void theRuleStatesTheThreshold() {
        String rule = bw(2000, 1000).ranking().rule();
        assertTrue(rule.startsWith("Each choice ran once, so best and worst are named only when"), rule);
        assertTrue(rule.contains("more than 20 % below the best"), rule);
        assertEquals("11 %", SweepRanking.percent(0.11));
        assertEquals("0.5 %", SweepRanking.percent(0.005));
    }
}
