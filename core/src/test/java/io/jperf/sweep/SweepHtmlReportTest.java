package io.jperf.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jperf.options.TestKind;
import io.jperf.path.Severity;
import io.jperf.report.RunInfo;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The sweep's HTML report, parsed back as XML and checked element by element. */
class SweepHtmlReportTest {

    static final String XHTML = "http://www.w3.org/1999/xhtml";
    static final String SVG = "http://www.w3.org/2000/svg";

    // ------------------------------------------------------------------ structure

    @Test
    void everyFixtureIsWellFormedSelfContainedXhtml() {
        List<Supplier<SweepResult>> all = List.of(SweepFixtures::bwMultiRail, SweepFixtures::bwCollapsed,
                () -> SweepFixtures.bwRailsCm(false), () -> SweepFixtures.bwRailsCm(true), SweepFixtures::lat,
                SweepFixtures::latAllSizes, SweepFixtures::bwSmallAndLarge);
        for (Supplier<SweepResult> s : all) {
            String html = SweepHtmlReport.render(s.get());
            assertTrue(html.startsWith("<!DOCTYPE html>\n"), "HTML5 doctype first");
            Document doc = parse(html);
            Element root = doc.getDocumentElement();
            assertEquals("html", root.getLocalName());
            assertEquals(XHTML, root.getNamespaceURI());
            assertEquals(1, all(doc, "style").size(), "one inline style sheet");
            for (String banned : List.of("script", "link", "img", "iframe", "object", "embed")) {
                assertTrue(all(doc, banned).isEmpty(), "no <" + banned + ">");
            }
            assertFalse(html.contains(" href="), "no links out");
            assertFalse(html.contains(" src="), "no external sources");
            assertFalse(html.replace("url(#", "").contains("url("), "only in-document url(#...) references");
            assertFalse(html.contains("@import"), "no imported style");
            assertFalse(html.contains("NaN") || html.contains("Infinity"), "no broken numbers");
            Element bars = byId(doc, "svg", "bar-chart");
            assertNotNull(bars, "the headline chart");
            assertEquals(SVG, bars.getNamespaceURI(), "inline SVG in the SVG namespace");
            List<String> ids = all(doc, "*").stream().map(e -> e.getAttribute("id")).filter(id -> !id.isEmpty()).toList();
            assertEquals(ids.size(), new java.util.HashSet<>(ids).size(), "ids are unique: " + ids);
        }
    }

    @Test
    void headerCountsAndFacts() {
        Document doc = parse(SweepHtmlReport.render(SweepFixtures.bwRailsCm(true)));
        assertEquals("8 choices", text(byId(doc, "span", "count-choices")));
        assertEquals("7 ran", text(byId(doc, "span", "count-ran")));
        assertEquals("1 failed", text(byId(doc, "span", "count-failed")));
        assertEquals("4 inconsistent", text(byId(doc, "span", "count-inconsistent")));
        String header = text(all(doc, "header").getFirst());
        assertTrue(header.contains("write-bw") && header.contains(SweepFixtures.PEER), header);
        assertTrue(header.contains("rail (2)") && header.contains("rdma_cm (2)") && header.contains("size (2)"), header);
        assertTrue(header.contains("2025-06-02 09:14:05 UTC"), header);
    }

    // ------------------------------------------------------------------ escaping

    @Test
    void textFromTheSystemAndThePeerIsEscaped() {
        String evilDev = "rxe<script>alert('dev')</script>";
        String evilError = "ibv_open_device failed: <script>alert(\"x\")</script> & \u0001 errno 19 (ENODEV)";
        SweepChoice c0 = SweepFixtures.bwChoice(0, SweepFixtures.RAIL0, "rail", evilDev + ">10.20.0.2");
        SweepChoice c1 = SweepFixtures.bwChoice(1, SweepFixtures.RAIL1, "rail", "rxe1>10.20.1.2");
        SweepRow ok = SweepFixtures.bwRow(c0, 2000);
        SweepRow bad = SweepFixtures.failedRow(c1, evilError, SweepFixtures.healthyRecord(SweepFixtures.RAIL1, 0),
                Optional.empty(), Duration.ofSeconds(1));
        SweepResult r = new SweepResult(TestKind.WRITE_BW, "<img src=x onerror=alert(1)>", List.of("rail"),
                List.of(ok, bad), SweepFixtures.STARTED, Duration.ofSeconds(3));
        String html = SweepHtmlReport.render(r);

        assertFalse(html.contains("<script"), "no raw <script>");
        assertFalse(html.contains("<img"), "no raw <img>");
        assertTrue(html.contains("&lt;script&gt;"), "escaped instead");
        Document doc = parse(html);
        assertTrue(all(doc, "script").isEmpty() && all(doc, "img").isEmpty());
        // the parser gives the original text back (the control character replaced)
        assertTrue(text(choice(doc, 1)).contains("<script>alert(\"x\")</script> & \uFFFD errno 19"), text(choice(doc, 1)));
        assertTrue(text(choice(doc, 0)).contains(evilDev + ">10.20.0.2"));
        assertTrue(text(all(doc, "title").getFirst()).contains("<img src=x onerror=alert(1)>"));
    }

    // ------------------------------------------------------------------ best / worst

    @Test
    void bestAndWorstMarkTheRightBandwidthChoices() {
        // ranked at 64K only: rail0 64K is the fastest, rail1 64K (collapsed onto rail0's route) the slowest,
        // 48 % below; the 4K rows are not compared with 64K ones
        SweepResult r = SweepFixtures.bwCollapsed();
        Document doc = parse(SweepHtmlReport.render(r));
        assertMarked(doc, r, 1, 3);
        assertEquals(SvgCharts.BEST, bar(doc, 1).getAttribute("fill"));
        assertEquals(SvgCharts.WORST, bar(doc, 3).getAttribute("fill"));
        assertEquals(SvgCharts.BAR, bar(doc, 2).getAttribute("fill"));
    }

    @Test
    void bestAndWorstMarkTheRightLatencyChoices() {
        // lower is better: rail0 tclass 106 (7.42 us) best, rail1 tclass 0 (9.64 us) worst
        SweepResult r = SweepFixtures.lat();
        Document doc = parse(SweepHtmlReport.render(r));
        assertMarked(doc, r, 1, 2);
    }

    private static void assertMarked(Document doc, SweepResult r, int best, int worst) {
        assertEquals(best, r.rows().indexOf(r.best().orElseThrow()), "fixture's best");
        assertEquals(worst, r.rows().indexOf(r.worst().orElseThrow()), "fixture's worst");
        for (int i = 0; i < r.rows().size(); i++) {
            List<String> rowClasses = classes(choice(doc, i));
            List<String> barClasses = classes(bar(doc, i));
            String markers = barRow(doc, i) == null ? "" : all(barRow(doc, i), "tspan").stream()
                    .filter(t -> classes(t).contains("marker")).map(SweepHtmlReportTest::text).toList().toString();
            assertEquals(i == best, rowClasses.contains("best"), "table row " + i + " best: " + rowClasses);
            assertEquals(i == worst, rowClasses.contains("worst"), "table row " + i + " worst: " + rowClasses);
            assertEquals(i == best, barClasses.contains("best"), "bar " + i + " best: " + barClasses);
            assertEquals(i == worst, barClasses.contains("worst"), "bar " + i + " worst: " + barClasses);
            assertEquals(i == best ? "[best]" : i == worst ? "[worst]" : "[]", markers, "marker text of bar " + i);
        }
    }

    // ------------------------------------------------------------------ failed / inconsistent

    @Test
    void failedChoiceKeepsItsSlotAndItsError() {
        SweepResult r = SweepFixtures.bwRailsCm(true);
        int failed = 7; // rail1, rdma_cm=on, 64K
        assertFalse(r.rows().get(failed).ok());
        Document doc = parse(SweepHtmlReport.render(r));

        Element row = choice(doc, failed);
        assertTrue(classes(row).contains("failed"), classes(row).toString());
        assertTrue(text(row).contains(SweepFixtures.CM_UNREACHABLE), "the whole error in the table");
        assertTrue(text(row).contains("F2 ERROR"), "what was learned about the path stays");
        assertNull(bar(doc, failed), "no bar for a failed choice");
        Element g = barRow(doc, failed);
        assertTrue(classes(g).contains("failed"));
        assertEquals(1, all(g, "rect").stream().filter(e -> classes(e).contains("slot")).count(), "an empty slot");
        assertTrue(text(g).contains("failed: rdma_connect 10.20.1.1"), text(g));
        for (int i = 0; i < r.rows().size(); i++) {
            assertEquals(i == failed, classes(choice(doc, i)).contains("failed"), "row " + i);
        }
    }

    @Test
    void inconsistentChoicesAreFlaggedInChartAndTable() {
        SweepResult r = SweepFixtures.bwCollapsed(); // rows 2, 3: rail1 with F2 ERROR
        Document doc = parse(SweepHtmlReport.render(r));
        for (int i = 0; i < 4; i++) {
            boolean expected = i >= 2;
            assertEquals(expected, !r.rows().get(i).consistent(), "fixture row " + i);
            assertEquals(expected, classes(choice(doc, i)).contains("inconsistent"), "table row " + i);
            assertEquals(expected, classes(bar(doc, i)).contains("inconsistent"), "bar " + i);
            List<Element> hatches = all(barRow(doc, i), "rect").stream().filter(e -> classes(e).contains("hatch")).toList();
            assertEquals(expected ? 1 : 0, hatches.size(), "hatch over bar " + i);
            if (expected) {
                assertEquals("url(#hatch)", hatches.getFirst().getAttribute("fill"));
                assertEquals(SvgCharts.WARN, hatches.getFirst().getAttribute("stroke"));
                assertTrue(text(barRow(doc, i)).contains("F2"), "verdict id next to the bar");
                List<String> badges = all(choice(doc, i), "span").stream().filter(e -> classes(e).contains("badge"))
                        .map(SweepHtmlReportTest::text).toList();
                assertTrue(badges.contains("F2 ERROR"), badges.toString());
                assertTrue(badges.contains("F2 INFO"), "INFO verdicts are listed too: " + badges);
            }
        }
        assertEquals(Severity.ERROR, r.rows().get(2).verdicts().getFirst().severity());

        Document healthy = parse(SweepHtmlReport.render(SweepFixtures.bwMultiRail()));
        for (int i = 0; i < 4; i++) {
            assertFalse(classes(choice(healthy, i)).contains("inconsistent"));
            assertTrue(text(choice(healthy, i)).contains("consistent"));
        }
        assertEquals("0 inconsistent", text(byId(healthy, "span", "count-inconsistent")));
    }

    @Test
    void verdictDetailsCarrySummaryFixAndEvidence() {
        SweepResult r = SweepFixtures.bwCollapsed();
        String detail = text(choice(parse(SweepHtmlReport.render(r)), 2));
        var f2 = r.rows().get(2).verdicts().getFirst();
        assertTrue(detail.contains(f2.summary()), "summary");
        assertTrue(detail.contains(f2.fixHint()), "fix hint");
        assertTrue(detail.contains("local.route.egress=veth0"), "evidence");
        assertTrue(detail.contains("Path: rxe1 port 1"), "this end's path text");
        assertTrue(detail.contains("Peer Path: rxe1 port 1"), "the peer's path text");
    }

    // ------------------------------------------------------------------ size chart

    @Test
    void sizeChartAppearsOnlyWithSeveralSizes() {
        Document bw = parse(SweepHtmlReport.render(SweepFixtures.bwMultiRail()));
        Element chart = byId(bw, "svg", "size-chart");
        assertNotNull(chart, "2 sizes as a dimension");
        assertEquals(2, all(chart, "polyline").size(), "one line per rail");
        List<String> legend = all(chart, "g").stream().filter(g -> classes(g).contains("legend-entry"))
                .map(g -> text(all(g, "text").getFirst())).toList();
        assertEquals(List.of("rail=rxe0>10.20.0.2", "rail=rxe1>10.20.1.2"), legend);
        List<String> ticks = all(chart, "text").stream().filter(t -> classes(t).contains("xtick"))
                .map(SweepHtmlReportTest::text).toList();
        assertEquals(List.of("4K", "64K"), ticks);

        assertNull(byId(parse(SweepHtmlReport.render(SweepFixtures.lat())), "svg", "size-chart"), "one size only");

        Element lat = byId(parse(SweepHtmlReport.render(SweepFixtures.latAllSizes())), "svg", "size-chart");
        assertNotNull(lat, "-a: several results per row");
        assertEquals(2, all(lat, "polyline").size());
        List<String> latTicks = all(lat, "text").stream().filter(t -> classes(t).contains("xtick"))
                .map(SweepHtmlReportTest::text).toList();
        assertEquals("2", latTicks.getFirst());
        assertEquals("8K", latTicks.getLast());
        assertTrue(latTicks.contains("64") && latTicks.contains("1K"), latTicks.toString());

        Element collapsed = byId(parse(SweepHtmlReport.render(SweepFixtures.bwCollapsed())), "svg", "size-chart");
        List<Element> lines = all(collapsed, "polyline");
        assertEquals("", lines.get(0).getAttribute("stroke-dasharray"), "consistent rail0: solid");
        assertFalse(lines.get(1).getAttribute("stroke-dasharray").isEmpty(), "inconsistent rail1: dashed");
    }

    @Test
    void sizeChartPointsFollowTheFiguresOnALog2Axis() {
        Element chart = byId(parse(SweepHtmlReport.render(SweepFixtures.latAllSizes())), "svg", "size-chart");
        Element first = all(chart, "g").stream().filter(g -> classes(g).contains("series")).findFirst().orElseThrow();
        List<Element> dots = all(first, "circle");
        assertEquals(13, dots.size(), "2 B .. 8K");
        double step = num(dots.get(1), "cx") - num(dots.get(0), "cx");
        for (int i = 1; i < dots.size(); i++) {
            assertEquals(step, num(dots.get(i), "cx") - num(dots.get(i - 1), "cx"), 0.02, "doubling = one step");
            assertTrue(num(dots.get(i), "cy") < num(dots.get(i - 1), "cy"), "latency grows with size: the point rises");
        }
    }

    // ------------------------------------------------------------------ bars

    @Test
    void barLengthsAreProportionalToTheHeadline() {
        for (SweepResult r : List.of(SweepFixtures.bwCollapsed(), SweepFixtures.lat())) {
            Document doc = parse(SweepHtmlReport.render(r));
            double h0 = r.rows().get(0).headline().getAsDouble();
            double w0 = num(bar(doc, 0), "width");
            double x0 = num(bar(doc, 0), "x");
            for (int i = 1; i < r.rows().size(); i++) {
                double hi = r.rows().get(i).headline().getAsDouble();
                double wi = num(bar(doc, i), "width");
                assertEquals(hi / h0, wi / w0, 0.002, "bar " + i + " vs bar 0 in " + r.kind());
                assertEquals(x0, num(bar(doc, i), "x"), "bars start at the same axis");
                assertEquals(hi, num(bar(doc, i), "data-value"), 1e-9);
            }
            assertTrue(w0 > 200, "the longest bars use most of the plot");
        }
    }

    @Test
    void zeroHeadlineGivesAnEmptyBarAndASaneAxis() {
        SweepRow zero = SweepFixtures.bwRow(SweepFixtures.bwChoice(0, SweepFixtures.RAIL0, "gid", "1"), 0);
        String html = SweepHtmlReport.render(SweepFixtures.sweep(TestKind.WRITE_BW, List.of(zero)));
        assertFalse(html.contains("NaN") || html.contains("Infinity"));
        Document doc = parse(html);
        assertEquals(0, num(bar(doc, 0), "width"));
        assertTrue(text(barRow(doc, 0)).contains("0.00 Gb/s"));
        List<String> ticks = all(byId(doc, "svg", "bar-chart"), "g").stream()
                .filter(g -> classes(g).contains("ticks")).flatMap(g -> all(g, "text").stream())
                .map(SweepHtmlReportTest::text).toList();
        assertTrue(ticks.contains("0") && ticks.contains("1"), "a 0..1 axis: " + ticks);
    }

    @Test
    void oneChoiceHasNoBestOrWorst() {
        SweepRow only = SweepFixtures.bwRow(SweepFixtures.bwChoice(0, SweepFixtures.RAIL0, "gid", "1"), 2200);
        Document doc = parse(SweepHtmlReport.render(SweepFixtures.sweep(TestKind.WRITE_BW, List.of(only))));
        assertNotNull(bar(doc, 0));
        assertFalse(classes(bar(doc, 0)).contains("best") || classes(bar(doc, 0)).contains("worst"));
        assertFalse(classes(choice(doc, 0)).contains("best") || classes(choice(doc, 0)).contains("worst"));
        assertEquals("1 choice", text(byId(doc, "span", "count-choices")));
        assertNull(byId(doc, "svg", "size-chart"));
    }

    @Test
    void allFailedStillRendersEveryChoice() {
        List<SweepRow> rows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            rows.add(SweepFixtures.failedRow(SweepFixtures.bwChoice(i, SweepFixtures.RAIL1, "gid", Integer.toString(i)),
                    "ibv_modify_qp(RTR) failed: errno 110 (ETIMEDOUT) choice " + i,
                    SweepFixtures.collapsedRecord(SweepFixtures.RAIL1, 0), Optional.empty(), Duration.ofSeconds(5)));
        }
        String html = SweepHtmlReport.render(SweepFixtures.sweep(TestKind.WRITE_BW, rows));
        Document doc = parse(html);
        assertEquals("0 ran", text(byId(doc, "span", "count-ran")));
        assertEquals("3 failed", text(byId(doc, "span", "count-failed")));
        assertNull(byId(doc, "svg", "size-chart"));
        for (int i = 0; i < 3; i++) {
            assertNull(bar(doc, i));
            assertTrue(classes(barRow(doc, i)).contains("failed"));
            assertTrue(text(choice(doc, i)).contains("errno 110 (ETIMEDOUT) choice " + i));
        }
        assertFalse(html.contains("NaN"));
    }

    @Test
    void longLabelsAreCutInTheChartButWholeInTheTable() {
        String longValue = "rxe_with_a_very_long_name>" + "fd00:0:0:0:0:0:0:1:".repeat(8) + "end";
        SweepRow row = SweepFixtures.bwRow(SweepFixtures.bwChoice(0, SweepFixtures.RAIL0, "rail", longValue), 2000);
        Document doc = parse(SweepHtmlReport.render(SweepFixtures.sweep(TestKind.WRITE_BW, List.of(row))));
        Element g = barRow(doc, 0);
        String shown = all(g, "text").stream().filter(t -> classes(t).contains("label")).map(SweepHtmlReportTest::text)
                .findFirst().orElseThrow();
        assertTrue(shown.length() <= SvgCharts.BAR_LABEL_CHARS, shown);
        assertTrue(shown.endsWith("\u2026"), shown);
        assertEquals("rail=" + longValue, text(all(g, "title").getFirst()), "full label as the tooltip");
        assertTrue(text(choice(doc, 0)).contains(longValue), "full value in the table");
    }

    @Test
    void latencyTableHasTheLatencyFigures() {
        SweepResult r = SweepFixtures.lat();
        Document doc = parse(SweepHtmlReport.render(r));
        List<String> head = all(all(doc, "thead").getFirst(), "th").stream().map(SweepHtmlReportTest::text).toList();
        assertEquals(List.of("#", "rail", "tclass", "msg size", "t_typical usheadline", "t_avg us", "p99 us", "p99.9 us",
                "verdicts", "status"), head);
        String row0 = text(choice(doc, 0));
        var l = r.rows().get(0).result().orElseThrow().latency().getFirst();
        assertTrue(row0.contains(HtmlText.num(l.typicalUs())) && row0.contains(HtmlText.num(l.p999Us())), row0);
        assertTrue(row0.contains("F5 WARNING"), "tclass 0 with --qos");
    }

    @Test
    void legendExplainsHighlightsAndEveryFailureClass() {
        Document doc = parse(SweepHtmlReport.render(SweepFixtures.bwMultiRail()));
        Element legend = byId(doc, "section", "legend");
        List<String> ids = all(legend, "th").stream().map(SweepHtmlReportTest::text).toList();
        assertEquals(List.of("F1", "F2", "F3", "F4", "F5", "F6", "F7"), ids);
        String t = text(legend);
        for (String w : List.of("best", "worst", "inconsistent", "failed", "ERROR", "WARNING", "INFO")) {
            assertTrue(t.contains(w), w);
        }
    }

    // ------------------------------------------------------------------ issue #25: rate, axes, noise, base options

    @Test
    void smallMessagesAreChartedByMessageRateNotAsEmptyGbitBars() {
        SweepResult r = SweepFixtures.bwSmallAndLarge(); // rail x size 2, 64, 4K, 64K; rail1 4K failed
        Document doc = parse(SweepHtmlReport.render(r));
        Element rate = byId(doc, "svg", "rate-chart");
        assertNotNull(rate, "a message-rate chart for the 2 B and 64 B choices");
        Element gbits = byId(doc, "svg", "bar-chart");
        List<Integer> inRate = dataIndexes(rate);
        List<Integer> inGbits = dataIndexes(gbits);
        assertEquals(List.of(0, 1, 4, 5), inRate, "2 and 64 B choices of both rails");
        assertEquals(List.of(2, 3, 6, 7), inGbits, "4K and 64K choices (6: failed)");
        for (int i : inRate) {
            Element bar = bar(doc, i);
            double mpps = r.rows().get(i).result().orElseThrow().bandwidth().getFirst().messageRateMpps();
            assertEquals(mpps, num(bar, "data-value"), 1e-9, "bar " + i + " is the message rate");
            assertTrue(num(bar, "width") > 200, "a 2 B choice's bar is not empty: " + bar.getAttribute("width"));
            assertTrue(text(barRow(doc, i)).contains(HtmlText.num(mpps) + " Mpps"), text(barRow(doc, i)));
        }
        assertTrue(text(byId(doc, "section", "rate")).contains("Message rate per choice (Mpps)"));
        // the table's message rate is the figure that is bold for small sizes
        Element cell = all(choice(doc, 0), "td").stream().filter(td -> classes(td).contains("rate")).findFirst()
                .orElseThrow();
        assertTrue(classes(cell).contains("small-size") && !all(cell, "b").isEmpty(), "bold Mpps on a 2 B row");
        Element big = all(choice(doc, 3), "td").stream().filter(td -> classes(td).contains("rate")).findFirst()
                .orElseThrow();
        assertFalse(classes(big).contains("small-size"));
        // and a message rate vs size chart next to the Gb/s one
        assertNotNull(byId(doc, "svg", "rate-size-chart"));
        // a sweep of large messages only has no rate charts
        Document large = parse(SweepHtmlReport.render(SweepFixtures.bwCollapsed()));
        assertNull(byId(large, "svg", "rate-chart"));
        assertNull(byId(large, "svg", "rate-size-chart"));
        assertNotNull(byId(large, "svg", "bar-chart"));
    }

    @Test
    void axesAreLogWhereTheFiguresSpanDecadesAndLinearOtherwise() {
        Document doc = parse(SweepHtmlReport.render(SweepFixtures.bwSmallAndLarge()));
        Element bySize = byId(doc, "svg", "size-chart");
        assertTrue(classes(bySize).contains("log"), "0.13 .. 94 Gb/s against size");
        List<String> yTicks = all(bySize, "text").stream().filter(t -> classes(t).contains("ytick"))
                .map(SweepHtmlReportTest::text).toList();
        assertEquals(List.of("0.1", "1", "10", "100"), yTicks);
        assertTrue(text(bySize).contains("Gb/s (average) (log scale)"), "the caption says so");
        // on a log axis equal ratios are equal distances: 2 B -> 64 B is 32x in Gb/s at ~equal Mpps
        Element rail0 = all(bySize, "g").stream().filter(g -> classes(g).contains("series")).findFirst().orElseThrow();
        List<Element> dots = all(rail0, "circle");
        double y2 = num(dots.get(0), "cy");
        double y64 = num(dots.get(1), "cy");
        double y64k = num(dots.get(3), "cy");
        double perDecade = (y2 - y64k) / Math.log10(94.37 / 0.1296);
        assertEquals(Math.log10(4.045 / 0.1296) * perDecade, y2 - y64, 1.0, "distance follows log10 of the ratio");
        // the Mpps chart of the small choices: 7.5 .. 8.1 Mpps, linear from 0
        Element rate = byId(doc, "svg", "rate-chart");
        assertFalse(classes(rate).contains("log"));
        // the Gb/s bars: 4K (85 Gb/s) and 64K (49..94): within a decade, linear
        assertFalse(classes(byId(doc, "svg", "bar-chart")).contains("log"));
        // latency 7.4 .. 18.5 us against size: linear
        Element lat = byId(parse(SweepHtmlReport.render(SweepFixtures.latAllSizes())), "svg", "size-chart");
        assertFalse(classes(lat).contains("log"));
        assertFalse(text(lat).contains("log scale"));
    }

    @Test
    void aGapWithinTheNoiseOfOneRunIsNeitherBestNorWorst() {
        // the issue's page: 11 % between two choices of one run each painted the slower one red
        SweepChoice c0 = SweepFixtures.bwChoice(0, SweepFixtures.RAIL0, "rail", "rxe0>10.20.0.2");
        SweepChoice c1 = SweepFixtures.bwChoice(1, SweepFixtures.RAIL1, "rail", "rxe1>10.20.1.2");
        SweepResult r = SweepFixtures.sweep(TestKind.WRITE_BW,
                List.of(SweepFixtures.bwRow(c0, 2000), SweepFixtures.bwRow(c1, 1780)));
        String html = SweepHtmlReport.render(r);
        Document doc = parse(html);
        for (int i = 0; i < 2; i++) {
            assertFalse(classes(choice(doc, i)).contains("worst") || classes(choice(doc, i)).contains("best"));
            assertEquals(SvgCharts.BAR, bar(doc, i).getAttribute("fill"), "no red, no green");
        }
        assertEquals("not ranked: one run each, within noise (the 2 choices at 64K are within 11 % of each other; "
                + "threshold 20 %)", text(byId(doc, "span", "ranking")));
        assertTrue(classes(byId(doc, "span", "ranking")).contains("within-noise"));
        String rule = text(byId(doc, "li", "ranking-rule"));
        assertTrue(rule.contains("Each choice ran once") && rule.contains("more than 20 % below the best"), rule);
        // the same two choices 25 % apart are ranked, and the page says why
        Document far = parse(SweepHtmlReport.render(SweepFixtures.sweep(TestKind.WRITE_BW,
                List.of(SweepFixtures.bwRow(c0, 2000), SweepFixtures.bwRow(c1, 1500)))));
        assertEquals(SvgCharts.WORST, bar(far, 1).getAttribute("fill"));
        assertTrue(text(byId(far, "span", "ranking")).contains("25 % below the best, beyond the 20 % noise threshold"));
    }

    @Test
    void thePageCarriesBaseOptionsVersionCommandLineAndHost() {
        RunInfo run = new RunInfo("9.8.7", "jperf sweep write-bw 10.20.0.2 --rails rxe0=10.20.0.2 --html 'a b.html'",
                "lab-a");
        Document doc = parse(SweepHtmlReport.render(SweepFixtures.bwSmallAndLarge(), run));
        String header = text(all(doc, "header").getFirst());
        assertTrue(header.contains("9.8.7 on lab-a"), header);
        assertTrue(header.contains("jperf sweep write-bw 10.20.0.2 --rails rxe0=10.20.0.2 --html 'a b.html'"), header);
        String base = text(byId(doc, "span", "base-options"));
        assertTrue(base.startsWith("-c RC -i 1 -x 1 -n 5000 -q 1"), base);
        assertTrue(base.contains("--tclass 106") && base.contains("--report_gbits") && base.endsWith("-p 18515"), base);
        assertFalse(base.contains("-d ") || base.contains("-s "), "device and size are swept: " + base);
    }

    private static List<Integer> dataIndexes(Element chart) {
        return all(chart, "g").stream().filter(g -> classes(g).contains("row"))
                .map(g -> Integer.parseInt(g.getAttribute("data-index"))).toList();
    }

    // ------------------------------------------------------------------ DOM helpers

    static Document parse(String html) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            return f.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            fail("not well-formed XML: " + e.getMessage());
            throw new AssertionError(e);
        }
    }

    static List<Element> all(Node under, String localName) {
        NodeList nl = under instanceof Document d ? d.getElementsByTagNameNS("*", localName)
                : ((Element) under).getElementsByTagNameNS("*", localName);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nl.getLength(); i++) {
            out.add((Element) nl.item(i));
        }
        return out;
    }

    static Element byId(Document doc, String localName, String id) {
        return all(doc, localName).stream().filter(e -> id.equals(e.getAttribute("id"))).findFirst().orElse(null);
    }

    static List<String> classes(Element e) {
        return e == null ? List.of() : Arrays.asList(e.getAttribute("class").trim().split("\\s+"));
    }

    static String text(Element e) {
        return e.getTextContent();
    }

    static double num(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    /** The table body of choice {@code i}. */
    static Element choice(Document doc, int i) {
        return all(doc, "tbody").stream().filter(e -> Integer.toString(i).equals(e.getAttribute("data-index")))
                .findFirst().orElseThrow(() -> new AssertionError("no table row " + i));
    }

    /** Every bar chart of the page (the Gb/s or latency one, and the message-rate one). */
    static List<Element> barCharts(Document doc) {
        return all(doc, "svg").stream().filter(e -> classes(e).contains("bar-chart")).toList();
    }

    /** The bar chart's group of choice {@code i}. */
    static Element barRow(Document doc, int i) {
        return barCharts(doc).stream().flatMap(c -> all(c, "g").stream())
                .filter(e -> classes(e).contains("row") && Integer.toString(i).equals(e.getAttribute("data-index")))
                .findFirst().orElse(null);
    }

    /** The bar of choice {@code i}, null when it has none (failed). */
    static Element bar(Document doc, int i) {
        return barCharts(doc).stream().flatMap(c -> all(c, "rect").stream())
                .filter(e -> classes(e).contains("bar") && Integer.toString(i).equals(e.getAttribute("data-index")))
                .findFirst().orElse(null);
    }
}
