package io.jperf.cli;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's {@code _} and jperf's {@code -} spellings of long options: both work, everywhere. */
class SpellingsTest {
    @Test
    void alternateSwapsTheSeparator() {
        assertEquals("--out-json", Spellings.alternate("--out_json"));
        assertEquals("--bind_source_ip", Spellings.alternate("--bind-source-ip"));
        assertNull(Spellings.alternate("--json"));
        assertNull(Spellings.alternate("-R"));
    }

    @Test
    void everyOptionWithASeparatorAnswersToBothSpellings() {
        CommandLine root = JperfCommand.commandLine();
        List<String> checked = new ArrayList<>();
        List<String> clashes = new ArrayList<>();
        for (Map.Entry<String, CommandLine> sub : root.getSubcommands().entrySet()) {
            Map<String, OptionSpec> byName = sub.getValue().getCommandSpec().optionsMap();
            for (OptionSpec option : sub.getValue().getCommandSpec().options()) {
                for (String name : option.names()) {
                    String other = Spellings.alternate(name);
                    if (other != null && byName.get(other) != option) {
                        clashes.add(sub.getKey() + " " + name + " / " + other);
                    } else if (other != null) {
                        checked.add(sub.getKey() + " " + name);
                    }
                }
            }
        }
        // both spellings of each, e.g. write-bw's --out_json/--out-json and --peer-dev/--peer_dev
        for (String expected : List.of("write-bw --out_json", "write-bw --out-json", "write-bw --bind_source_ip",
                "write-bw --bind-source-ip", "write-lat --bind-source-ip", "write-bw --peer-dev", "write-bw --peer_dev",
                "sweep --out_json", "sweep --gid-indexes", "serve --auth-token-file")) {
            assertTrue(checked.contains(expected), expected + " not among " + checked);
        }
        assertTrue(checked.size() > 40, "checked " + checked.size());
        // the one pair that are two options: sweep's dimension --rdma-cm off,on and perftest's -R/--rdma_cm
        assertEquals(java.util.Set.of("sweep --rdma_cm / --rdma-cm", "sweep --rdma-cm / --rdma_cm"),
                java.util.Set.copyOf(clashes), clashes.toString());
        assertEquals(2, clashes.size(), clashes.toString());
    }

    @Test
    void bothSpellingsGiveTheSameOptions() {
        TestOptions underscores = parse("--out_json", "--out_json_file", "x.json", "--bind_source_ip", "10.0.0.1",
                "--report_gbits", "10.0.0.2");
        TestOptions dashes = parse("--out-json", "--out-json-file", "x.json", "--bind-source-ip", "10.0.0.1",
                "--report-gbits", "10.0.0.2");
        assertEquals(underscores, dashes);
        assertTrue(dashes.output().json() && dashes.params().reportGbits());
        assertEquals("10.0.0.1", dashes.target().bindSourceIp());
    }

    @Test
    void theHelpListsBothSpellings() {
        String help = CliRunner.run("write-bw", "--help").out();
        assertTrue(help.contains("--out_json, --out-json") || help.contains("--out-json, --out_json"), help);
    }

    private static TestOptions parse(String... args) {
        CommandLine root = JperfCommand.commandLineFor("write-bw");
        CommandLine sub = root.getSubcommands().get("write-bw");
        List<String> all = new ArrayList<>(List.of("write-bw"));
        all.addAll(List.of(args));
        root.parseArgs(all.toArray(String[]::new));
        WriteBwCommand command = sub.getCommand();
        return command.common.toOptions(TestKind.WRITE_BW, command.bw);
    }
}
