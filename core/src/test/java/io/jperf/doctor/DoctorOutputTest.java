package io.jperf.doctor;

import io.jperf.report.JsonReader;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.jperf.doctor.DoctorFixtures.doctor;
import static io.jperf.doctor.DoctorFixtures.healthyDevices;
import static io.jperf.doctor.DoctorFixtures.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text and the JSON of one report hold the same checks. */
class DoctorOutputTest {
    static final DoctorReport REPORT = doctor(tree(), healthyDevices(), FakeNetwork.singleDefaultRoute()).build().run();

    @Test
    void textHasLayerHeadingsInOrderAlignedVerdictsAndNoColourUnlessAsked() {
        String text = DoctorText.render(REPORT, false);
        List<String> headings = text.lines().filter(l -> l.startsWith("== ")).toList();
        assertEquals(List.of("== " + Layer.LINK.title(), "== " + Layer.IP.title(), "== " + Layer.RDMA.title(),
                "== " + Layer.QOS.title(), "== " + Layer.NUMA.title(), "== " + Layer.SYSTEM.title()), headings);
        List<String> checkLines = text.lines().filter(l -> l.matches("  (PASS|WARN|FAIL|SKIP)  .*")).toList();
        assertEquals(REPORT.checks().size(), checkLines.size());
        int nameColumn = checkLines.getFirst().indexOf("netdev-state");
        for (Check c : REPORT.checks()) {
            String line = checkLines.get(REPORT.checks().indexOf(c));
            assertEquals(nameColumn, line.indexOf(c.name(), 8 + c.subject().length()), "aligned: " + line);
        }
        assertFalse(text.contains("\u001b"), "no ANSI codes without colour");
        assertTrue(text.contains("        fix: add per-rail policy routing"), "the fix under a finding");
        assertTrue(text.strip().endsWith("exit 2 (failures)"), text);
        assertTrue(text.lines().allMatch(l -> l.length() <= 100 || l.matches("  (PASS|WARN|FAIL|SKIP)  .*")),
                "values and fixes wrap at 100 columns");

        String colour = DoctorText.render(REPORT, true);
        assertTrue(colour.contains("\u001b[31;1mFAIL\u001b[0m"), "FAIL in red");
        assertTrue(colour.contains("\u001b[32mPASS\u001b[0m"), "PASS in green");
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasTheSameChecksStatusesAndEvidence() {
        Map<String, Object> json = JsonReader.parseObject(DoctorJson.render(REPORT));
        assertEquals(1L, ((Number) json.get("jperf_doctor")).longValue());
        assertEquals("fixture", json.get("host"));
        List<Map<String, Object>> layers = (List<Map<String, Object>>) json.get("layers");
        assertEquals(List.of("link", "ip", "rdma", "qos", "numa", "system"), layers.stream().map(l -> l.get("layer")).toList());
        List<Map<String, Object>> checks = layers.stream().flatMap(l -> ((List<Map<String, Object>>) l.get("checks")).stream())
                .toList();
        assertEquals(REPORT.checks().size(), checks.size());
        for (int i = 0; i < checks.size(); i++) {
            Check c = REPORT.checks().get(i);
            Map<String, Object> j = checks.get(i);
            assertEquals(c.subject(), j.get("subject"));
            assertEquals(c.name(), j.get("check"));
            assertEquals(c.status().name(), j.get("status"));
            assertEquals(c.result().summary(), j.get("summary"));
            assertEquals(c.result().evidence(), j.get("evidence"));
            assertEquals(c.result().fixHint(), j.get("fix"));
        }
        Map<String, Object> summary = (Map<String, Object>) json.get("summary");
        assertEquals((long) REPORT.exitCode(), ((Number) summary.get("exit_code")).longValue());
        assertEquals(REPORT.count(Status.FAIL), ((Number) summary.get("fail")).longValue());
        assertEquals(REPORT.count(Status.WARN), ((Number) summary.get("warn")).longValue());
    }
}
