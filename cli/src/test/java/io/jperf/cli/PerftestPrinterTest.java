package io.jperf.cli;

import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.RunInfo;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestPrinterTest {
    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-bw 10.20.0.2", "lab-a");

    private static String connected(TestOptions o) {
        StringWriter out = new StringWriter();
        PerftestPrinter printer = new PerftestPrinter(o, RUN, new PrintWriter(out), new PrintWriter(new StringWriter()));
        printer.connected(TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true), List.of(), List.of());
        return out.toString();
    }

    @Test
    void theHeaderOpensWithVersionHostAndCommandLine() {
        String text = connected(TestOptions.builder(TestKind.WRITE_BW).serverHost("10.20.0.2").build());
        List<String> lines = text.lines().toList();
        assertEquals(" jperf 0.1.0 on lab-a: jperf write-bw 10.20.0.2", lines.getFirst());
        assertTrue(lines.get(1).startsWith("----"), text);
        assertTrue(text.contains("RDMA_Write BW Test"), text);
    }

    @Test
    void onlyTheOneNumberWithOutput() {
        assertEquals("", connected(TestOptions.builder(TestKind.WRITE_BW).serverHost("10.20.0.2")
                .outputMode(OutputMode.BANDWIDTH).build()));
    }
}
