package io.jperf.report;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.jperf.engine.PerfTestResult;
import io.jperf.sweep.SweepFixtures;
import io.jperf.sweep.SweepResult;
import io.jperf.sweep.SweepRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** jperf's JSON record against its committed JSON Schema ({@link JsonReport#SCHEMA_RESOURCE}). */
class JperfResultSchemaTest {
    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-bw -a --jperf-json r.json 10.20.0.2", "lab-a");
    private static Schema schema;

    @BeforeAll
    static void loadSchema() throws IOException {
        try (InputStream in = JsonReport.class.getResourceAsStream(JsonReport.SCHEMA_RESOURCE)) {
            assertNotNull(in, JsonReport.SCHEMA_RESOURCE + " is not on the class path");
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    private static List<PerfTestResult> results(SweepResult... sweeps) {
        List<PerfTestResult> all = new ArrayList<>();
        for (SweepResult s : sweeps) {
            s.rows().stream().map(SweepRow::result).flatMap(java.util.Optional::stream).forEach(all::add);
        }
        return all;
    }

    @Test
    void everyKindOfResultMatchesTheSchema() {
        // bandwidth with path records, verdicts, -R choices and warnings; latency at one size and with -a
        List<PerfTestResult> all = results(SweepFixtures.bwRailsCm(true), SweepFixtures.lat(),
                SweepFixtures.latAllSizes());
        assertTrue(all.size() >= 8, "fixtures: " + all.size());
        assertTrue(all.stream().anyMatch(r -> !r.warnings().isEmpty()), "no result with warnings among the fixtures");
        for (PerfTestResult r : all) {
            String json = r.toJson(RUN);
            List<Error> errors = schema.validate(json, InputFormat.JSON);
            assertEquals(List.of(), errors.stream().map(Error::toString).toList(), json);
        }
    }

    @Test
    void aReadLatencyResultMatchesTheSchemaToo() {
        PerfTestResult w = results(SweepFixtures.lat()).getFirst();
        io.jperf.options.TestOptions o = io.jperf.options.TestOptions.builder(io.jperf.options.TestKind.READ_LAT)
                .serverHost("10.20.0.1").device(w.options().target().device()).build();
        PerfTestResult r = new PerfTestResult(o, w.header(), w.local(), w.remote(), w.peerVersion(), w.bandwidth(),
                w.latency(), w.path(), w.rdmaCm(), w.warnings());
        String json = r.toJson(RUN);
        assertTrue(json.contains("\"ib_read_lat\""), json);
        assertEquals(List.of(), schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList(), json);
    }

    @Test
    void sendResultsMatchTheSchemaWithTheirRxDepth() {
        for (io.jperf.options.TestKind kind : List.of(io.jperf.options.TestKind.SEND_LAT,
                io.jperf.options.TestKind.SEND_BW)) {
            PerfTestResult w = results(kind.isBandwidth() ? SweepFixtures.bwCollapsed() : SweepFixtures.lat()).getFirst();
            io.jperf.options.TestOptions o = io.jperf.options.TestOptions.builder(kind).rxDepth(64)
                    .serverHost("10.20.0.1").device(w.options().target().device()).build();
            PerfTestResult r = new PerfTestResult(o, w.header(), w.local(), w.remote(), w.peerVersion(), w.bandwidth(),
                    w.latency(), w.path(), w.rdmaCm(), w.warnings());
            String json = r.toJson(RUN);
            assertTrue(json.contains("\"" + kind.perftestName() + "\"") && json.contains("\"rx_depth\": 64"), json);
            assertEquals(List.of(), schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList(),
                    json);
        }
    }

    @Test
    void atomicResultsMatchTheSchemaWithTheirOperation() {
        for (io.jperf.options.TestKind kind : List.of(io.jperf.options.TestKind.ATOMIC_LAT,
                io.jperf.options.TestKind.ATOMIC_BW)) {
            PerfTestResult w = results(kind.isBandwidth() ? SweepFixtures.bwCollapsed() : SweepFixtures.lat()).getFirst();
            io.jperf.options.TestOptions o = io.jperf.options.TestOptions.builder(kind)
                    .atomicType(io.jperf.options.AtomicType.CMP_AND_SWAP)
                    .serverHost("10.20.0.1").device(w.options().target().device()).build();
            PerfTestResult r = new PerfTestResult(o, w.header(), w.local(), w.remote(), w.peerVersion(), w.bandwidth(),
                    w.latency(), w.path(), w.rdmaCm(), w.warnings());
            String json = r.toJson(RUN);
            assertTrue(json.contains("\"" + kind.perftestName() + "\"")
                    && json.contains("\"atomic_type\": \"CMP_AND_SWAP\""), json);
            assertEquals(List.of(), schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList(),
                    json);
        }
    }

    @Test
    void theSchemaRefusesWhatItDoesNotDescribe() {
        PerfTestResult r = results(SweepFixtures.lat()).getFirst();
        String json = r.toJson(RUN);
        assertTrue(schema.validate(json, InputFormat.JSON).isEmpty());
        // no "run", an unknown key, a latency row without its unit-suffixed field
        String noRun = json.replaceFirst("\"run\": \\{[^}]*},", "");
        assertFalse(noRun.contains("\"run\""), noRun);
        assertFalse(schema.validate(noRun, InputFormat.JSON).isEmpty(), "a document without run passed");
        String extra = json.replaceFirst("\\{", "{\"unexpected\": 1,");
        assertFalse(schema.validate(extra, InputFormat.JSON).isEmpty(), "an unknown top-level key passed");
        String renamed = json.replace("\"t_typical_us\"", "\"t_typical\"");
        assertFalse(schema.validate(renamed, InputFormat.JSON).isEmpty(), "a renamed result field passed");
    }

    @Test
    void theRunSaysVersionCommandLineAndHost() {
        String json = results(SweepFixtures.lat()).getFirst().toJson(RUN);
        assertTrue(json.contains("\"run\": {\n    \"jperf_version\": \"0.1.0\",\n"
                + "    \"command_line\": \"jperf write-bw -a --jperf-json r.json 10.20.0.2\",\n"
                + "    \"host\": \"lab-a\"\n  }"), json);
    }
}
