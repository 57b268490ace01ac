package io.jperf.bench.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GateCheck on synthetic JMH results: pass, regression, allocation, missing data, baseline refresh. */
class GateCheckTest {
    private static final String GATED = "io.jperf.bench.PostPollBenchmark.javaVsC";

    @TempDir
    Path dir;

    /** A JMH result entry for the gated benchmark: java and C ns for 1000 WRs, and B/op. */
    private static String gated(int postList, int cqMod, double javaNs, double cNs, double alloc) {
        return """
                {"benchmark": "%s", "mode": "avgt", "params": {"cqMod": "%d", "postList": "%d"},
                 "primaryMetric": {"score": 1.0, "scoreError": "NaN", "scoreUnit": "ns/op", "rawData": [[1.0]]},
                 "secondaryMetrics": {
                   "javaNs": {"score": %s, "scoreUnit": "#"}, "cNs": {"score": %s, "scoreUnit": "#"},
                   "wrs": {"score": 1000.0, "scoreUnit": "#"},
                   "gc.alloc.rate.norm": {"score": %s, "scoreUnit": "B/op"}}}
                """.formatted(GATED, cqMod, postList, javaNs, cNs, alloc);
    }

    private static String plain(String name, double score, Double alloc) {
        String secondary = alloc == null ? "{}" : "{\"gc.alloc.rate.norm\": {\"score\": " + alloc + "}}";
        return """
                {"benchmark": "io.jperf.bench.PostPollBenchmark.%s", "params": {"cqMod": "1", "postList": "1"},
                 "primaryMetric": {"score": %s, "scoreUnit": "ns/op"}, "secondaryMetrics": %s}
                """.formatted(name, score, secondary);
    }

    private Path result(String... entries) throws IOException {
        return Files.writeString(dir.resolve("result.json"), "[" + String.join(",", entries) + "]");
    }

    private Path baseline(double ratio) throws IOException {
        return Files.writeString(dir.resolve("baseline.json"), """
                {"policy": {"ratioFactor": 1.5, "ratioSlack": 0.25, "maxAllocBytesPerOp": 1.0},
                 "gated": ["%s"],
                 "entries": [{"benchmark": "%s", "params": "postList=1 cqMod=1", "ratio": %s}]}
                """.formatted(GATED, GATED, ratio));
    }

    private record Run(int status, String out) {
    }

    private static Run run(String... args) throws IOException {
        PrintStream old = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            int status = GateCheck.run(args);
            return new Run(status, buffer.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void passesWithinTheLimit() throws IOException {
        // ratio 2.9 <= 2.0 * 1.5 + 0.25 = 3.25
        Run run = run(result(gated(1, 1, 29_000, 10_000, 0.002), plain("javaLoop", 12, 0.0), plain("cBaseline", 6, 0.0)).toString(),
                baseline(2.0).toString());
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("gate: PASS"), run.out());
        assertTrue(run.out().contains("29.00"), "java ns/WR in the table: " + run.out());
        assertTrue(run.out().contains("2.00"), "the separate javaLoop/cBaseline ratio is shown: " + run.out());
    }

    @Test
    void failsAboveTheLimitNamingBenchmarkRatioBaselineAndLimit() throws IOException {
        Run run = run(result(gated(1, 1, 40_000, 10_000, 0.0)).toString(), baseline(2.0).toString());
        assertEquals(1, run.status(), run.out());
        assertTrue(run.out().contains("SLOWER"), run.out());
        assertTrue(run.out().contains("PostPollBenchmark.javaVsC [postList=1 cqMod=1]: ratio 4.00 (Java 40.00 ns/WR"
                + " / C 10.00 ns/WR) is above the limit 3.25 (baseline ratio 2.00 x 1.50 + 0.25)"), run.out());
    }

    @Test
    void failsWhenTheDataPathAllocates() throws IOException {
        Run run = run(result(gated(1, 1, 20_000, 10_000, 24.0)).toString(), baseline(2.0).toString());
        assertEquals(1, run.status(), run.out());
        assertTrue(run.out().contains("allocates 24.00 B/op"), run.out());
    }

    @Test
    void failsWithoutAllocationDataOrBaselineOrResult() throws IOException {
        Run noGc = run(result(gated(1, 1, 20_000, 10_000, 0.0), plain("javaLoop", 12, null)).toString(),
                baseline(2.0).toString());
        assertEquals(1, noGc.status());
        assertTrue(noGc.out().contains("-prof gc"), noGc.out());

        Run newParams = run(result(gated(1, 1, 20_000, 10_000, 0.0), gated(4, 1, 20_000, 10_000, 0.0)).toString(),
                baseline(2.0).toString());
        assertEquals(1, newParams.status());
        assertTrue(newParams.out().contains("[postList=4 cqMod=1]: no baseline ratio"), newParams.out());

        Run missing = run(result(plain("javaLoop", 12, 0.0)).toString(), baseline(2.0).toString());
        assertEquals(1, missing.status());
        assertTrue(missing.out().contains("in the baseline but not in this run"), missing.out());

        assertThrows(IllegalArgumentException.class,
                () -> GateCheck.run(new String[] {dir.resolve("none.json").toString(), baseline(2.0).toString()}));
    }

    @Test
    void updateWritesABaselineTheNextCheckPasses() throws IOException {
        Path baseline = dir.resolve("fresh.json");
        Path result = result(gated(1, 1, 25_000, 10_000, 0.0), gated(32, 100, 1_400, 1_000, 0.0));
        Run update = run(result.toString(), baseline.toString(), "--update-baseline");
        assertEquals(0, update.status(), update.out());
        String written = Files.readString(baseline);
        assertTrue(written.contains("\"ratio\": 2.5"), written);
        assertTrue(written.contains("\"params\": \"postList=32 cqMod=100\""), written);
        assertEquals(0, run(result.toString(), baseline.toString()).status());
    }

    /** With the fastest-chunk counters the gated ratio is javaMinNs / cMinNs, not the mean ratio. */
    private static String gatedWithMin(double javaMin, double cMin) {
        return """
                {"benchmark": "%s", "params": {"cqMod": "1", "postList": "1"},
                 "primaryMetric": {"score": 1.0, "scoreUnit": "ns/op"},
                 "secondaryMetrics": {
                   "javaNs": {"score": 90000.0}, "cNs": {"score": 10000.0}, "wrs": {"score": 1000.0},
                   "javaMinNs": {"score": %s}, "cMinNs": {"score": %s}, "chunkWrs": {"score": 100.0},
                   "gc.alloc.rate.norm": {"score": 0.0}}}
                """.formatted(GATED, javaMin, cMin);
    }

    @Test
    void theGatedRatioUsesTheFastestChunks() throws IOException {
        // mean ratio 9.0 would fail; fastest chunks 2000 / 1000 = 2.0 passes (limit 3.25)
        Run run = run(result(gatedWithMin(2_000, 1_000)).toString(), baseline(2.0).toString());
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("20.00"), "java ns/WR = 2000 ns / 100 WRs: " + run.out());
        assertTrue(run.out().contains("9.00"), "the mean ratio is shown: " + run.out());
    }

    @Test
    void updateKeepsTheHighestRatioOfSeveralRuns() throws IOException {
        Path first = Files.writeString(dir.resolve("r1.json"), "[" + gated(1, 1, 21_000, 10_000, 0.0) + "]");
        Path second = Files.writeString(dir.resolve("r2.json"), "[" + gated(1, 1, 24_000, 10_000, 0.0) + "]");
        Path baseline = dir.resolve("fresh.json");
        assertEquals(0, run(first.toString(), second.toString(), baseline.toString(), "--update-baseline").status());
        assertTrue(Files.readString(baseline).contains("\"ratio\": 2.4,"), Files.readString(baseline));
        assertThrows(IllegalArgumentException.class,
                () -> GateCheck.run(new String[] {first.toString(), second.toString(), baseline.toString()}));
    }

    @Test
    void updateRefusesAnAllocatingRun() throws IOException {
        Path baseline = dir.resolve("fresh.json");
        Run update = run(result(gated(1, 1, 25_000, 10_000, 16.0)).toString(), baseline.toString(), "--update-baseline");
        assertEquals(1, update.status());
        assertTrue(update.out().contains("baseline NOT updated"), update.out());
        assertTrue(Files.notExists(baseline));
    }
}
