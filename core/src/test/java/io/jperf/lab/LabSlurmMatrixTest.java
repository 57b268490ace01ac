package io.jperf.lab;

import io.jperf.report.JsonReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue #27 point 5: {@code jperf matrix} launched by Slurm's {@code srun} on the three-guest lab
 * ({@code lab/rdma-lab test --vms 3 [--scenario rail-down]}, guest A, where slurmctld runs). Runs
 * {@code lab/scripts/slurm-matrix.sh} (srun -N 3 --ntasks-per-node=1 jperf matrix write-bw --rails
 * rxe0,rxe1, per rail, -D 2) and reads the matrix JSON it wrote. With {@code rail-down} (rail1 of C =
 * Slurm node lab3 down) exactly lab3's rxe1 must be the one suspect and every bad link must touch it;
 * with {@code multirail} there must be no suspect and no bad link.
 */
@Tag("slurm")
class LabSlurmMatrixTest {
    private static final String FAULTY_HOST = "lab3";
    private static final String FAULTY_RAIL = "rxe1";

    @Test
    void matrixThroughSrunFindsExactlyTheBrokenRail() throws Exception {
        String scenario = ScenarioGuest.env("LAB_SCENARIO");
        Path results = Path.of(ScenarioGuest.env("LAB_RESULTS"));
        Path script = Path.of(ScenarioGuest.env("LAB_REPO"), "lab", "scripts", "slurm-matrix.sh");
        Process p = new ProcessBuilder(script.toString(), "SRUN_TIMEOUT=600")
                .redirectErrorStream(true).redirectOutput(results.resolve("slurm-matrix-test.log").toFile()).start();
        if (!p.waitFor(660, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("slurm-matrix.sh still ran after 660 s (" + results.resolve("slurm-matrix-test.log") + ")");
        }
        String log = Files.readString(results.resolve("slurm-matrix-test.log"), StandardCharsets.UTF_8);
        System.out.println(log);
        Path jsonFile = results.resolve("matrix").resolve("matrix.json");
        assertTrue(Files.exists(jsonFile), "no matrix.json: srun or jperf matrix failed; script output:\n" + log);
        Map<String, Object> m = JsonReader.parseObject(Files.readString(jsonFile, StandardCharsets.UTF_8));
        assertEquals(List.of("lab1", "lab2", "lab3"), m.get("hosts"), "Slurm's node list, in rank order");
        assertEquals(List.of("rxe0", "rxe1"), m.get("rails"));
        assertEquals(6L, ((Number) m.get("tests")).longValue(), "3 pairs x 2 rails");
        List<Map<String, Object>> suspects = list(m.get("suspects"));
        List<Map<String, Object>> bad = list(m.get("bad_links"));
        if ("rail-down".equals(scenario)) {
            assertEquals(1, p.exitValue(), "srun's exit status: jperf matrix exits 1 on a bad link\n" + log);
            assertEquals(1, suspects.size(), "exactly one suspect: " + suspects);
            Map<String, Object> s = suspects.getFirst();
            assertEquals("HOST_RAIL", s.get("kind"), s.toString());
            assertEquals(FAULTY_HOST, s.get("host"), s.toString());
            assertEquals(FAULTY_RAIL, s.get("rail"), s.toString());
            assertEquals(2, bad.size(), "both of lab3's rxe1 links, no other: " + bad);
            for (Map<String, Object> point : list(m.get("points"))) {
                boolean touchesFault = FAULTY_RAIL.equals(point.get("client_rail"))
                        && (FAULTY_HOST.equals(point.get("client")) || FAULTY_HOST.equals(point.get("server")));
                boolean ok = "OK".equals(point.get("status"));
                assertEquals(!touchesFault, ok, "point " + point);
            }
        } else {
            assertEquals(0, p.exitValue(), "srun's exit status with every rail up\n" + log);
            assertEquals(List.of(), suspects);
            assertEquals(List.of(), bad);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object x : (List<Object>) o) {
            out.add((Map<String, Object>) x);
        }
        return out;
    }
}
