package io.jperf.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Axis ticks and the text helpers of the HTML report. */
class SvgChartsTest {

    @Test
    void niceTicksEndAtANiceMaximumAtOrAboveTheData() {
        assertArrayEquals(new double[] {0, 5, 10, 15, 20}, SvgCharts.niceTicks(19.31, 5), 1e-9);
        assertArrayEquals(new double[] {0, 2, 4, 6, 8}, SvgCharts.niceTicks(7.94, 5), 1e-9);
        assertArrayEquals(new double[] {0, 20, 40, 60, 80, 100}, SvgCharts.niceTicks(100, 5), 1e-9);
        assertArrayEquals(new double[] {0, 0.01, 0.02, 0.03, 0.04}, SvgCharts.niceTicks(0.037, 5), 1e-12);
        assertArrayEquals(new double[] {0, 2.5, 5, 7.5, 10, 12.5}, SvgCharts.niceTicks(12.1, 5), 1e-9);
    }

    @Test
    void niceTicksOfNothingAreZeroToOne() {
        for (double v : new double[] {0, -3, Double.NaN, Double.POSITIVE_INFINITY}) {
            double[] t = SvgCharts.niceTicks(v, 5);
            assertEquals(0, t[0]);
            assertEquals(1, t[t.length - 1], 1e-12, "max for " + v);
        }
    }

    @Test
    void tickLabelsHaveTheDecimalsTheStepNeeds() {
        double[] halves = SvgCharts.niceTicks(12.1, 5);
        assertEquals("7.5", SvgCharts.tickLabel(7.5, halves));
        assertEquals("10", SvgCharts.tickLabel(10, halves));
        assertEquals("0", SvgCharts.tickLabel(0, halves));
        assertEquals("20", SvgCharts.tickLabel(20, SvgCharts.niceTicks(19.3, 5)));
        assertEquals("0.03", SvgCharts.tickLabel(0.03, SvgCharts.niceTicks(0.037, 5)));
    }

    @Test
    void sizesReadLikePerftestArguments() {
        assertEquals("2", HtmlText.size(2));
        assertEquals("64", HtmlText.size(64));
        assertEquals("1536", HtmlText.size(1536));
        assertEquals("4K", HtmlText.size(4096));
        assertEquals("64K", HtmlText.size(65536));
        assertEquals("1M", HtmlText.size(1 << 20));
        assertEquals("8M", HtmlText.size(8 << 20));
    }

    @Test
    void escapingCoversMarkupQuotesAndCharactersXmlForbids() {
        assertEquals("&lt;script&gt;a &amp; b&lt;/script&gt;", HtmlText.esc("<script>a & b</script>"));
        assertEquals("&quot;x&quot; &#39;y&#39;", HtmlText.esc("\"x\" 'y'"));
        assertEquals("a\uFFFDb\tc\n", HtmlText.esc("a\u0000b\tc\n"));
        assertEquals("\uFFFD", HtmlText.esc("\uD800"), "lone surrogate");
        assertEquals("\uD83D\uDE00", HtmlText.esc("\uD83D\uDE00"), "a pair stays");
        assertEquals("", HtmlText.esc(null));
    }

    @Test
    void truncationAndNumbers() {
        assertEquals("abcdef", HtmlText.truncate("abcdef", 6));
        assertEquals("abcd\u2026", HtmlText.truncate("abcdefg", 5));
        assertEquals("19.31", HtmlText.num(19.3123));
        assertEquals("0.037", HtmlText.num(0.0368));
        assertEquals("123.5", HtmlText.num(123.45));
        assertEquals("4821", HtmlText.num(4821.2));
        assertEquals("0.00", HtmlText.num(0));
        assertEquals("0.000296", HtmlText.num(0.00029612), "small rates keep three significant digits");
        assertEquals("0.0012", HtmlText.num(0.0012));
        assertEquals("12.5", HtmlText.coord(12.5));
        assertEquals("0", HtmlText.coord(Double.NaN));
    }

    @Test
    void valueAxisIsLinearFromZeroWithinADecade() {
        ValueAxis a = ValueAxis.fit(List.of(7.42, 9.64, 8.0));
        assertFalse(a.log());
        assertArrayEquals(new double[] {0, 2, 4, 6, 8, 10}, a.ticks(), 1e-9);
        assertEquals(0.5, a.fraction(5), 1e-9);
        assertEquals("", a.captionSuffix());
        assertFalse(ValueAxis.fit(List.of(1.0, 9.99)).log(), "9.99x is less than a decade");
        assertFalse(ValueAxis.fit(List.of(0.0, 90.0)).log(), "a zero cannot go on a log axis");
        assertFalse(ValueAxis.fit(List.of(42.0)).log(), "one value");
    }

    @Test
    void valueAxisIsLogWhenTheFiguresSpanDecades() {
        // 2 B at 0.13 Gb/s next to 64K at 94 Gb/s
        ValueAxis a = ValueAxis.fit(List.of(0.13, 4.0, 85.0, 94.0, Double.NaN));
        assertTrue(a.log());
        assertArrayEquals(new double[] {0.1, 1, 10, 100}, a.ticks(), 1e-12);
        assertEquals(0, a.fraction(0.1), 1e-9);
        assertEquals(1.0 / 3, a.fraction(1), 1e-9);
        assertEquals(1, a.fraction(100), 1e-9);
        assertEquals(0, a.fraction(0), "clamped");
        assertEquals(List.of("0.1", "1", "10", "100"),
                java.util.Arrays.stream(a.ticks()).mapToObj(a::label).toList());
        assertEquals(" (log scale)", a.captionSuffix());
        // two decades or less: 1-2-5 ticks
        ValueAxis dense = ValueAxis.fit(List.of(1.5, 40.0));
        assertArrayEquals(new double[] {1, 2, 5, 10, 20, 50, 100}, dense.ticks(), 1e-9);
        assertEquals("10k", ValueAxis.fit(List.of(10.0, 20000.0)).label(10000));
    }

    @Test
    void baseOptionsAreTheFlagsEveryChoiceShares() {
        SweepResult r = SweepFixtures.bwSmallAndLarge();
        List<String> base = SweepBaseOptions.shared(r.rows().stream().map(row -> row.choice().options()).toList());
        assertTrue(base.contains("-c RC") && base.contains("-x 1") && base.contains("--tclass 106")
                && base.contains("--report_gbits") && base.contains("-q 1"), base.toString());
        assertTrue(base.stream().noneMatch(f -> f.startsWith("-d ") || f.startsWith("-s ")),
                "the rail's device and the size differ between choices: " + base);
        assertFalse(base.contains("-R") || base.contains("-b"), "switches off everywhere are not listed: " + base);
        assertEquals(List.of(), SweepBaseOptions.shared(List.of()));
    }
}
