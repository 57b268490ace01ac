package io.jperf.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writes the fixture reports for looking at them in a browser, to {@code core/target/sweep-samples}
 * (or the directory in {@code -Djperf.sweep.samples}):
 * <pre>
 * mvn -o -pl core test -Dtest=SweepHtmlSamplesTest -Djperf.sweep.samples=/tmp
 * lab/scripts/screenshot-report.sh /tmp/sweep-side-by-side.html
 * </pre>
 * {@code sweep-side-by-side.html} shows the correct multi-rail sweep next to the collapsed one.
 */
class SweepHtmlSamplesTest {

    @Test
    void writeSampleReports() throws IOException {
        Path dir = Path.of(System.getProperty("jperf.sweep.samples", "target/sweep-samples"));
        Files.createDirectories(dir);
        Map<String, SweepResult> samples = Map.of(
                "sweep-bw", SweepFixtures.bwRailsCm(true),
                "sweep-bw-multirail", SweepFixtures.bwRailsCm(false),
                "sweep-bw-collapsed", SweepFixtures.bwRailsCm(true),
                "sweep-bw-2x2", SweepFixtures.bwCollapsed(),
                "sweep-lat", SweepFixtures.lat(),
                "sweep-lat-all-sizes", SweepFixtures.latAllSizes(),
                "sweep-bw-small-and-large", SweepFixtures.bwSmallAndLarge());
        for (Map.Entry<String, SweepResult> e : samples.entrySet()) {
            Files.writeString(dir.resolve(e.getKey() + ".html"), SweepHtmlReport.render(e.getValue()));
        }
        Files.writeString(dir.resolve("sweep-side-by-side.html"), """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"/><title>multi-rail vs collapsed</title>
                <style>
                body { margin: 0; display: flex; font-family: sans-serif; }
                div { flex: 1; border-right: 3px solid #888; }
                h1 { font-size: 18px; margin: 6px 12px; }
                iframe { border: 0; width: 100%; height: 2600px; }
                </style></head><body>
                <div><h1>correct multi-rail (per-rail policy routing)</h1><iframe src="sweep-bw-multirail.html"></iframe></div>
                <div><h1>collapsed (single default route: rail1 egresses via rail0)</h1><iframe src="sweep-bw-collapsed.html"></iframe></div>
                </body></html>
                """);
        for (String page : new String[] {"sweep-bw-multirail.html", "sweep-bw-collapsed.html"}) {
            assertTrue(Files.readString(dir.resolve(page)).startsWith("<!DOCTYPE html>"), page);
        }
    }
}
