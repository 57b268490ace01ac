package io.jperf.cli;

import io.jperf.report.JsonReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code jperf doctor} on this machine (CI's have no RDMA), and its usage errors. */
class DoctorCommandTest {
    private static final boolean KERNEL_HAS_RDMA = Files.isDirectory(Path.of("/sys/class/infiniband"));

    @Test
    void withoutRdmaItWalksLinkAndRoutesAndFailsTheDeviceLayerWithTheOptions() {
        assumeFalse(KERNEL_HAS_RDMA, "this kernel has RDMA; the lab's doctor tests cover real devices");
        CliRunner r = CliRunner.run("doctor");

        assertEquals(2, r.exitCode(), r.out());
        assertEquals("", r.err());
        String out = r.out();
        assertTrue(out.startsWith("jperf doctor on "), out);
        for (String heading : List.of("== link", "== IP", "== RDMA", "== QoS", "== NUMA", "== system")) {
            assertTrue(out.contains("\n" + heading), heading + " in\n" + out);
        }
        assertTrue(out.lines().anyMatch(l -> l.matches("  FAIL  -\\s+rdma-devices\\s+no usable RDMA device: .*")), out);
        assertTrue(out.contains("rdma link add rxe0 type rxe netdev"), out);
        assertTrue(out.contains("lab/rdma-lab setup"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("  (PASS|SKIP)  \\S+\\s+netdev-state .*")), "the link layer ran: " + out);
        assertTrue(out.lines().anyMatch(l -> l.matches("  (PASS|SKIP)  -\\s+default-route .*")), "the route layer ran: " + out);
        assertTrue(out.strip().endsWith("exit 2 (failures)"), out);
        assertFalse(out.contains("\u001b"), "no colour off a terminal");
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonCarriesTheSameVerdicts() {
        assumeFalse(KERNEL_HAS_RDMA, "this kernel has RDMA; the lab's doctor tests cover real devices");
        CliRunner r = CliRunner.run("doctor", "--json");
        assertEquals(2, r.exitCode());
        Map<String, Object> json = JsonReader.parseObject(r.out());
        assertEquals(2L, ((Number) ((Map<String, Object>) json.get("summary")).get("exit_code")).longValue());
        List<Map<String, Object>> layers = (List<Map<String, Object>>) json.get("layers");
        Map<String, Object> rdma = layers.stream().filter(l -> l.get("layer").equals("rdma")).findFirst().orElseThrow();
        Map<String, Object> check = ((List<Map<String, Object>>) rdma.get("checks")).getFirst();
        assertEquals("rdma-devices", check.get("check"));
        assertEquals("FAIL", check.get("status"));
        assertEquals("absent", ((Map<String, Object>) check.get("evidence")).get("sys.class.infiniband"));
    }

    @Test
    void usageErrorsExitTwoWithAUsageHintAndNothingOnStdout() {
        for (String[] args : List.of(new String[] {"doctor", "--rail", "rxe1=10.0.0.2"},
                new String[] {"doctor", "--peer", "h", "--rail", "rxe1"},
                new String[] {"doctor", "--color", "sometimes"},
                new String[] {"doctor", "--peer", "h", "--timeout", "0"},
                new String[] {"doctor", "-i", "0"},
                new String[] {"doctor", "--bogus"})) {
            CliRunner r = CliRunner.run(args);
            assertEquals(ExitCodes.USAGE, r.exitCode(), String.join(" ", args));
            assertEquals("", r.out(), "a usage error prints no report: " + String.join(" ", args));
            assertTrue(r.err().startsWith("jperf: "), r.err());
            assertTrue(r.err().contains("Try 'jperf doctor --help'"), r.err());
        }
        assertTrue(CliRunner.run("doctor", "--rail", "rxe1=10.0.0.2").err().contains("--rail needs --peer HOST"));
    }

    @Test
    void helpDocumentsTheExitCodes() {
        CliRunner r = CliRunner.run("doctor", "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("every check passed"), r.out());
        assertTrue(r.out().contains("warnings, no failure"), r.out());
        assertTrue(r.out().contains("at least one check failed; also invalid options"), r.out());
        assertTrue(CliRunner.run("--help").out().contains("doctor"), "listed as a subcommand");
    }
}
