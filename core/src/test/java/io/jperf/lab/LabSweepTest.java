package io.jperf.lab;

import io.jperf.engine.JperfServer;
import io.jperf.engine.PerfTest;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.JsonReader;
import io.jperf.sweep.Sweep;
import io.jperf.sweep.SweepDimension;
import io.jperf.sweep.SweepHtmlReport;
import io.jperf.sweep.SweepJson;
import io.jperf.sweep.SweepPlan;
import io.jperf.sweep.SweepResult;
import io.jperf.sweep.SweepRow;
import io.jperf.sweep.SweepTextReport;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Rdma;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sweep on real rxe devices against an in-process {@code jperf serve}: every choice runs (TCP
 * exchange and RDMA CM, two sizes), a choice the server cannot serve fails in its row with the
 * reason, and the sweep goes on; the reports come out whole.
 */
@Tag("lab")
class LabSweepTest {

    @Test
    void aSweepOverCmAndSizesRunsEveryChoiceAndKeepsTheFailedOne() throws Exception {
        String serverIp;
        try (Context ctx = Rdma.open("rxe0")) {
            serverIp = GidSelection.perftestDefault(ctx.queryPort(1)).orElseThrow().ipAddress().orElseThrow()
                    .getHostAddress();
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        try (JperfServer server = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).port(port).build())
                .timeout(Duration.ofSeconds(30)).serveClients()) {
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (server.serveNext(Duration.ofSeconds(60)).isPresent()) {
                        // one client after another until the sweep stops coming
                    }
                } catch (IOException e) {
                    // closed by the test
                }
            });
            TestOptions base = TestOptions.builder(TestKind.WRITE_BW).serverHost(serverIp).port(port)
                    .iterations(200).reportGbits(true).build();
            SweepPlan plan = SweepPlan.builder(base)
                    .values(SweepDimension.RAIL, List.of("rxe1=" + serverIp, "rxe1=192.0.2.7"))
                    .values(SweepDimension.RDMA_CM, List.of("off", "on"))
                    .values(SweepDimension.SIZE, List.of("4K", "64K"))
                    .build();
            SweepResult r = Sweep.of(plan).pointTimeout(Duration.ofSeconds(30)).warmup(Duration.ZERO).run();
            serving.interrupt();

            assertEquals(8, r.rows().size());
            for (SweepRow row : r.rows().subList(0, 4)) {
                assertTrue(row.ok(), () -> row.choice().label() + ": " + row.error().orElse(""));
                assertTrue(row.headline().orElseThrow() > 0, row.choice().label());
                assertTrue(row.consistent(), () -> row.choice().label() + ": " + row.verdicts());
                assertTrue(row.path().orElseThrow().startsWith("Path: rxe1"), row.path().orElseThrow());
            }
            for (SweepRow row : r.rows().subList(4, 8)) {
                assertFalse(row.ok(), row.choice().label());
                assertTrue(row.error().orElseThrow().contains("no RDMA device of the server has a GID with 192.0.2.7"),
                        row.error().orElseThrow());
            }
            assertEquals(65536, r.rankedSize().orElseThrow());
            assertTrue(r.best().isEmpty() || r.best().get().headlineSize().orElseThrow() == 65536);

            Map<String, Object> json = JsonReader.parseObject(SweepJson.toJson(r));
            assertEquals(8, ((List<?>) json.get("rows")).size());
            assertTrue(SweepTextReport.render(r).contains("192.0.2.7"));
            String html = SweepHtmlReport.render(r);
            assertTrue(html.contains("rail=rxe1&gt;192.0.2.7") || html.contains("rxe1>192.0.2.7")
                    || html.contains("rxe1&gt;192.0.2.7"), "the failed rail is in the report");
            String results = System.getenv("LAB_RESULTS");
            if (results != null) {
                Files.writeString(Path.of(results, "lab-sweep.html"), html);
            }
        }
    }
}
