package io.jperf.sweep;

import static io.jperf.sweep.SweepFixtures.RAIL0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class SweepTextReportTest {

    /** The table's lines: from the column header to the first empty line. */
    private static List<String> table(String report) {
        List<String> lines = report.lines().toList();
        int start = 0;
        while (!lines.get(start).startsWith("  #")) {
            start++;
        }
        int end = start;
        while (end < lines.size() && !lines.get(end).isEmpty()) {
            end++;
        }
        return lines.subList(start, end);
    }

    @Test
    void theTableHasOneLinePerChoiceWithFiguresVerdictsAndBestWorst() {
        String text = SweepTextReport.render(SweepFixtures.bwCollapsed());
        assertTrue(text.startsWith("jperf sweep write-bw against 10.20.0.2: 4 points, 4 ran, 0 failed,"
                + " 2 with path problems ("), text);
        List<String> t = table(text);
        assertEquals(5, t.size(), String.join("\n", t));
        assertEquals(List.of("#", "rail", "size", "Gb/s", "status", "path"), List.of(t.get(0).strip().split(" +")));
        // rail0 64K: 2301.7 MiB/s = 19.31 Gb/s, the best; rail1 64K collapsed: 2301.7 x 0.994 x 0.52 MiB/s, the worst
        assertEquals(List.of("1", "rxe0>10.20.0.2", "64K", "19.31", "ok", "-", "<-", "best"),
                List.of(t.get(2).strip().split(" +")));
        assertEquals(List.of("3", "rxe1>10.20.1.2", "64K", "9.98", "ok", "F2!", "<-", "worst"),
                List.of(t.get(4).strip().split(" +")));
        assertEquals(List.of("2", "rxe1>10.20.1.2", "4K", "11.09", "ok", "F2!"), List.of(t.get(3).strip().split(" +")));
        assertEquals(1, text.split("<- best", -1).length - 1);
        // figures right-aligned in their column
        int col = t.get(0).indexOf("Gb/s") + 4;
        for (String line : t.subList(1, t.size())) {
            assertEquals(' ', line.charAt(col), line);
            assertTrue(Character.isDigit(line.charAt(col - 1)), line);
        }
    }

    @Test
    void detailsHaveThePathEveryVerdictWithItsFixAndTheError() {
        String text = SweepTextReport.render(SweepFixtures.bwRailsCm(true));
        List<String> t = table(text);
        assertEquals(List.of("7", "rxe1>10.20.1.2", "on", "64K", "-", "FAILED", "F2!"),
                List.of(t.get(8).strip().split(" +")));
        String failed = text.substring(text.indexOf("[7] rail=rxe1>10.20.1.2 rdma_cm=on size=64K: FAILED"));
        assertTrue(failed.contains("    Path: rxe1 port 1"), failed);
        assertTrue(failed.contains("    error: rdma_connect 10.20.1.1 -> 10.20.1.2:18515 failed:"), failed);
        assertTrue(failed.replace("\n      ", " ").contains("asymmetric routing, F3)"), "the whole error, wrapped");
        assertTrue(failed.contains("    F2 ERROR egress-netdev: "), failed);
        assertTrue(failed.contains("      fix: add per-rail policy routing"), failed);
        // the CM warning of choice 6 is under its row
        String six = text.substring(text.indexOf("[6] "), text.indexOf("[7] "));
        assertTrue(six.contains("    warning: RDMA CM resolved 10.20.1.2 to device rxe0"), six);
        assertTrue(text.substring(text.indexOf("[0] "), text.indexOf("[1] ")).contains("path checks: consistent (both ends)"));
    }

    @Test
    void everyLineFitsTheWidthUnlessOneWordIsLonger() {
        for (SweepResult r : List.of(SweepFixtures.bwRailsCm(true), SweepFixtures.lat(), SweepFixtures.latAllSizes())) {
            for (String line : SweepTextReport.render(r).lines().toList()) {
                if (line.length() > SweepTextReport.WIDTH) {
                    assertFalse(line.strip().contains(" ") && !line.startsWith("jperf sweep"), "too wide: " + line);
                }
            }
        }
    }

    @Test
    void latencyIsBetterWhenLowerAndWarningsHaveNoBang() {
        String text = SweepTextReport.render(SweepFixtures.lat());
        assertTrue(text.contains("typical latency (us) at the smallest message size, lower is better"), text);
        List<String> t = table(text);
        assertEquals("us", t.get(0).strip().split(" +")[3]);
        // rail0 tclass 106: 7.42 us, the best; rail1 tclass 0: 9.64 us (30 % above), the worst (and F5 WARNING, no "!")
        assertTrue(t.get(2).endsWith("-  <- best"), t.get(2));
        assertTrue(t.get(3).endsWith("F5  <- worst"), t.get(3));
        assertTrue(t.get(1).strip().endsWith("F5"), t.get(1));
    }

    @Test
    void aGapWithinTheNoiseOfOneRunIsNotRankedAndTheLineSaysSo() {
        SweepChoice c0 = SweepFixtures.bwChoice(0, RAIL0, "gid", "1");
        SweepChoice c1 = SweepFixtures.bwChoice(1, RAIL0, "gid", "3");
        SweepResult r = SweepFixtures.sweep(TestKind.WRITE_BW,
                List.of(SweepFixtures.bwRow(c0, 2000), SweepFixtures.bwRow(c1, 1780)));
        String text = SweepTextReport.render(r);
        assertFalse(text.contains("<- best") || text.contains("<- worst"), text);
        // a line of its own after the headline's, wrapped at the report's width
        String flat = text.replaceAll("\n {4}", " ");
        assertTrue(flat.contains("higher is better\nnot ranked: one run each, within noise (the 2 choices at 64K are "
                + "within 11 % of each other; threshold 20 %)\n"), text);
        String ranked = SweepTextReport.render(SweepFixtures.bwCollapsed()).replaceAll("\n {4}", " ");
        assertTrue(ranked.contains("\nranked: the worst of the 2 choices at 64K is 48 % below the best"), ranked);
        var json = io.jperf.report.JsonReader.parseObject(SweepJson.toJson(r));
        assertTrue(json.containsKey("best") && json.get("best") == null && json.get("worst") == null, "JSON agrees");
    }

    @Test
    void noBestOrWorstWithOneRowOrEqualFiguresOrNoneRan() {
        SweepChoice c0 = SweepFixtures.bwChoice(0, RAIL0, "gid", "1");
        SweepChoice c1 = SweepFixtures.bwChoice(1, RAIL0, "gid", "3");
        SweepResult one = SweepFixtures.sweep(TestKind.WRITE_BW, List.of(SweepFixtures.bwRow(c0, 1000)));
        SweepResult equal = SweepFixtures.sweep(TestKind.WRITE_BW,
                List.of(SweepFixtures.bwRow(c0, 1000), SweepFixtures.bwRow(c1, 1000)));
        SweepResult none = SweepFixtures.sweep(TestKind.WRITE_BW, List.of(
                SweepRow.failed(c0, "no RDMA device named 'rxe0'", List.of(), Optional.empty(), Duration.ZERO)));
        for (SweepResult r : List.of(one, equal, none)) {
            String text = SweepTextReport.render(r);
            assertFalse(text.contains("<- best") || text.contains("<- worst"), text);
        }
        String failed = SweepTextReport.render(none);
        assertTrue(failed.contains("Path: unknown"), failed);
        assertTrue(failed.contains("error: no RDMA device named 'rxe0'"), failed);
        assertTrue(failed.contains("1 point, 0 ran, 1 failed"), failed);
    }

    @Test
    void longCellsAreShortenedInTheTableButNotInTheDetails() {
        String longValue = "mlx5_bond_0>fd00:1234:5678:9abc:def0:1234:5678:9abc";
        SweepChoice c = SweepFixtures.bwChoice(0, RAIL0, "rail", longValue);
        String text = SweepTextReport.render(SweepFixtures.sweep(TestKind.WRITE_BW, List.of(SweepFixtures.bwRow(c, 900))));
        List<String> t = table(text);
        assertTrue(t.get(1).contains(longValue.substring(0, SweepTextReport.MAX_CELL - 3) + "..."), t.get(1));
        assertFalse(t.get(1).contains(longValue));
        assertTrue(text.contains("[0] rail=" + longValue), text);
    }

    @Test
    void verdictIdsListErrorsAndWarningsOnce() {
        SweepRow row = SweepFixtures.bwRailsCm(true).rows().get(4);
        assertEquals("F2!", SweepTextReport.verdictIds(row), "F2 INFO is not listed, F2 ERROR once");
        SweepRow clean = SweepFixtures.bwMultiRail().rows().getFirst();
        assertEquals("-", SweepTextReport.verdictIds(clean));
    }
}
