package io.jperf.matrix;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DryRunTest {

    @Test
    void thousandTwentyFourHostsTimesEightRails() {
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, 1024, 8, RailMode.PER_RAIL);
        DryRun d = DryRun.of(s, Duration.ofSeconds(8));
        assertEquals(1023 * 8, s.roundCount());
        assertEquals(1024L * 1023 / 2 * 8, s.testCount());
        assertEquals(512, s.widestRound());
        assertEquals(Duration.ofSeconds(8L * 1023 * 8), d.wallTime());
        assertEquals(1024L * 1024 * 8 * ResultMatrix.BYTES_PER_CELL, d.matrixBytes());
        assertEquals(1024L * 1023 / 2 * 2 * 4 + 1023L * 16, d.scheduleBytes());
        assertEquals(512L * 64 * 1024, d.inFlightBytes());
        assertEquals(65_536L * (240 + 3 + DryRun.ERROR_ENTRY_OVERHEAD), d.errorBytes());
        assertEquals(1024L * 1023 / 2 * 8 * 16, d.analysisBytes());
        assertEquals(d.matrixBytes() + d.errorBytes() + d.scheduleBytes() + d.inFlightBytes() + d.analysisBytes(),
                d.coordinatorBytes());
        String text = d.describe(Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertTrue(text.contains("rounds:     8,184 (at most 512 tests at once)"), text);
        assertTrue(text.contains("tests:      4,190,208"), text);
        assertTrue(text.contains("wall time:  18:11:12 (65,472 s)"), text);
    }

    @Test
    void theScheduleItselfAgreesWithTheCountsOnASmallCluster() {
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, 7, 2, RailMode.DEVICE_PAIRS);
        DryRun d = DryRun.of(s, Duration.ofMillis(1500));
        int rounds = 0;
        long tests = 0;
        for (var r : s.rounds()) {
            rounds++;
            tests += r.size();
        }
        assertEquals(rounds, s.roundCount());
        assertEquals(tests, s.testCount());
        assertEquals(Duration.ofMillis(1500L * rounds), d.wallTime());
        assertEquals(new ResultMatrix(MatrixAnalysisTest.hosts(7), java.util.List.of("a", "b"), RailMode.DEVICE_PAIRS,
                Metric.BANDWIDTH_GBPS).bytesUsed(), d.matrixBytes());
    }

    @Test
    void humanDurations() {
        assertEquals("00:00:59", DryRun.human(Duration.ofSeconds(59)));
        assertEquals("1 d 01:01:01", DryRun.human(Duration.ofSeconds(86_400 + 3661)));
    }
}
