package io.jperf.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Walks docs/perftest-flags.md and checks every row on jperf's real command line: a supported flag parses
 * into one of the command's own options, a refused or n.a. one (and one that is not a flag of the program)
 * stops with exit 2 and one line naming it, never picocli's "Unknown option". The table must also list
 * exactly the catalogue's flags of ib_write_bw and ib_write_lat, and its counts must be the rows'.
 */
class PerftestFlagsTableTest {
    private static final Path TABLE = Path.of("..", "docs", "perftest-flags.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| (\\S+) \\| (\\S+) \\|");

    /** A valid value for each supported flag that takes one. */
    private static final Map<String, String> SAMPLES = Map.ofEntries(
            Map.entry("-p", "18516"), Map.entry("-d", "mlx5_0"), Map.entry("-i", "1"), Map.entry("-m", "1024"),
            Map.entry("-s", "64"), Map.entry("-n", "100"), Map.entry("-u", "14"), Map.entry("-S", "0"),
            Map.entry("-x", "3"), Map.entry("-c", "RC"), Map.entry("-T", "0"), Map.entry("-D", "4"),
            Map.entry("-f", "1"), Map.entry("-I", "0"), Map.entry("--output", "latency"),
            Map.entry("--out_json_file", "x.json"), Map.entry("--tclass", "0"),
            Map.entry("--bind_source_ip", "127.0.0.1"), Map.entry("--pin_cores", "0"), Map.entry("-t", "16"),
            Map.entry("-q", "2"), Map.entry("-Q", "1"), Map.entry("-l", "1"), Map.entry("-w", "1"),
            Map.entry("-y", "1"), Map.entry("-A", "CMP_AND_SWAP"), Map.entry("-o", "4"),
            Map.entry("-W", "counters/port_xmit_data"));

    record Row(List<String> names, boolean takesValue, String writeBw, String writeLat) {
    }

    static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(TABLE)) {
            if (line.startsWith("## ib_atomic_bw")) {
                break;
            }
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                String flag = m.group(1);
                boolean value = flag.endsWith(" VALUE");
                List<String> names = List.of(flag.replace(" VALUE", "").split(", "));
                rows.add(new Row(names, value, m.group(2), m.group(3)));
            }
        }
        return rows;
    }

    @Test
    void everyRowBehavesOnTheRealParserAsTheTableSays() throws IOException {
        List<Row> rows = rows();
        assertTrue(rows.size() > 100, "rows: " + rows.size());
        List<String> wrong = new ArrayList<>();
        for (Row row : rows) {
            check(row, "write-bw", row.writeBw(), wrong);
            check(row, "write-lat", row.writeLat(), wrong);
        }
        assertEquals(List.of(), wrong);
    }

    private static void check(Row row, String command, String status, List<String> wrong) {
        for (String name : row.names()) {
            switch (status) {
                case "supported" -> checkSupported(command, name, row.names().getFirst(), row.takesValue(), wrong);
                case "refused" -> checkRefused(command, name, row.takesValue(), "jperf does not support this perftest"
                        + " flag yet", wrong);
                case "n.a." -> checkRefused(command, name, row.takesValue(), "does not apply to jperf", wrong);
                case "—" -> checkRefused(command, name, row.takesValue(), "not a flag of perftest's ib_"
                        + command.replace('-', '_'), wrong);
                default -> wrong.add(command + " " + name + ": unknown status " + status);
            }
        }
    }

    private static void checkSupported(String command, String name, String sampleKey, boolean takesValue,
                                       List<String> wrong) {
        List<String> args = new ArrayList<>(List.of(command, name));
        if (takesValue) {
            String sample = SAMPLES.get(sampleKey);
            if (sample == null) {
                wrong.add(command + " " + name + ": no sample value in the test");
                return;
            }
            args.add(sample);
        }
        CommandLine root = JperfCommand.commandLineFor(args.toArray(String[]::new));
        try {
            ParseResult parsed = root.parseArgs(args.toArray(String[]::new)).subcommand();
            OptionSpec option = parsed.matchedOption(name);
            if (option == null || PerftestFlags.isRefusal(option)) {
                wrong.add(command + " " + name + ": supported in the table, but not one of the command's options");
            }
        } catch (CommandLine.ParameterException e) {
            wrong.add(command + " " + name + ": supported in the table, but the parser says " + e.getMessage());
        }
    }

    private static void checkRefused(String command, String name, boolean takesValue, String says, List<String> wrong) {
        List<String> spellings = new ArrayList<>(List.of(name));
        String other = Spellings.alternate(name);
        if (other != null) {
            spellings.add(other);
        }
        for (String spelling : spellings) {
            List<String> args = new ArrayList<>(List.of(command, spelling));
            if (takesValue) {
                args.add("1");
            }
            CliRunner r = CliRunner.run(args.toArray(String[]::new));
            String err = r.err();
            boolean ok = r.exitCode() == ExitCodes.USAGE && r.out().isEmpty()
                    && err.lines().count() == 1 && err.startsWith("jperf: " + command + ": ")
                    && err.contains(name) && err.contains(says) && !err.contains("Unknown option");
            if (!ok) {
                wrong.add(command + " " + spelling + ": exit " + r.exitCode() + ", stderr " + err.strip());
            }
        }
    }

    /** The rows of the ib_atomic_bw / ib_atomic_lat section: where the atomic programs differ from the write ones. */
    static List<Row> atomicRows() throws IOException {
        String text = Files.readString(TABLE);
        int at = text.indexOf("## ib_atomic_bw and ib_atomic_lat");
        assertTrue(at > 0, "no atomic section in " + TABLE);
        List<Row> rows = new ArrayList<>();
        for (String line : text.substring(at).lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                String flag = m.group(1);
                rows.add(new Row(List.of(flag.replace(" VALUE", "").split(", ")), flag.endsWith(" VALUE"), m.group(2),
                        m.group(3)));
            }
        }
        return rows;
    }

    @Test
    void theAtomicCommandsBehaveAsTheWriteTableSaysExceptTheirOwnRows() throws IOException {
        Map<String, Row> overrides = new java.util.LinkedHashMap<>();
        for (Row row : atomicRows()) {
            overrides.put(String.join(", ", row.names()), row);
        }
        assertTrue(overrides.containsKey("-A, --atomic_type"), overrides.keySet().toString());
        Map<String, Row> write = new java.util.LinkedHashMap<>();
        for (Row row : rows()) {
            write.put(String.join(", ", row.names()), row);
        }
        List<String> wrong = new ArrayList<>();
        for (PerftestFlags.Flag flag : PerftestFlags.CATALOGUE) {
            String key = String.join(", ", flag.names());
            Row row = overrides.getOrDefault(key, write.get(key));
            boolean bw = flag.programs().contains(PerftestFlags.Program.ATOMIC_BW);
            boolean lat = flag.programs().contains(PerftestFlags.Program.ATOMIC_LAT);
            if (row == null) {
                if (bw || lat) {
                    wrong.add(key + ": a flag of the atomic programs in neither table");
                }
                continue;
            }
            // a flag outside the program's usage may still be one of jperf's shared options (-I): "supported"
            if (bw != !row.writeBw().equals("—") && !row.writeBw().equals("supported")
                    || lat != !row.writeLat().equals("—") && !row.writeLat().equals("supported")) {
                wrong.add(key + ": the table's — does not match the catalogue's programs " + flag.programs());
            }
            check(row, "atomic-bw", row.writeBw(), wrong);
            check(row, "atomic-lat", row.writeLat(), wrong);
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theTableListsExactlyTheCatalogueFlagsOfBothPrograms() throws IOException {
        Set<String> inTable = new LinkedHashSet<>();
        for (Row row : rows()) {
            inTable.add(String.join(", ", row.names()));
        }
        Set<String> inCatalogue = new LinkedHashSet<>();
        for (PerftestFlags.Flag flag : PerftestFlags.CATALOGUE) {
            if (flag.programs().contains(PerftestFlags.Program.WRITE_BW)
                    || flag.programs().contains(PerftestFlags.Program.WRITE_LAT)) {
                inCatalogue.add(String.join(", ", flag.names()));
            }
        }
        assertEquals(List.copyOf(inCatalogue), List.copyOf(inTable));
        for (Row row : rows()) {
            PerftestFlags.Flag flag = PerftestFlags.named(row.names().getFirst());
            assertNotNull(flag, row.toString());
            assertEquals(flag.takesValue(), row.takesValue(), row.toString());
            assertEquals(flag.programs().contains(PerftestFlags.Program.WRITE_BW), !row.writeBw().equals("—"),
                    row.toString());
            assertEquals(flag.programs().contains(PerftestFlags.Program.WRITE_LAT), !row.writeLat().equals("—"),
                    row.toString());
        }
    }

    @Test
    void theCountsInTheTextAreTheRows() throws IOException {
        Map<String, Integer> bw = new TreeMap<>();
        Map<String, Integer> lat = new TreeMap<>();
        for (Row row : rows()) {
            bw.merge(row.writeBw(), 1, Integer::sum);
            lat.merge(row.writeLat(), 1, Integer::sum);
        }
        String text = Files.readString(TABLE);
        String expected = "ib_write_bw " + (rows().size() - bw.getOrDefault("—", 0)) + " flags: "
                + bw.getOrDefault("supported", 0) + " supported, " + bw.getOrDefault("refused", 0) + " refused, "
                + bw.getOrDefault("n.a.", 0) + " n.a.; ib_write_lat " + (rows().size() - lat.getOrDefault("—", 0))
                + " flags: " + lat.getOrDefault("supported", 0) + " supported, " + lat.getOrDefault("refused", 0)
                + " refused, " + lat.getOrDefault("n.a.", 0) + " n.a.";
        assertTrue(text.replaceAll("\\s+", " ").contains(expected), "the text should say: " + expected);
    }

    @Test
    void flagsOfOtherPerftestProgramsAreRefusedByEveryTestCommand() {
        for (PerftestFlags.Flag flag : PerftestFlags.CATALOGUE) {
            if (!flag.programs().isEmpty()) {
                continue;
            }
            for (String command : JperfCommand.TEST_COMMANDS) {
                String name = flag.names().getFirst();
                if (JperfCommand.commandLineFor(command).getSubcommands().get(command).getCommandSpec()
                        .findOption(name) != null) {
                    continue; // a flag of another perftest program that this command has (send's -r/--rx-depth)
                }
                CliRunner r = flag.takesValue() ? CliRunner.run(command, name, "x") : CliRunner.run(command, name);
                assertEquals(ExitCodes.USAGE, r.exitCode(), command + " " + name + ": " + r.err());
                // send flags (e.g. -g/--mcg) are perftest flags of send-bw/send-lat that jperf lacks yet
                String why = command.startsWith("send-") ? "jperf does not support this perftest flag yet" : "not a flag of perftest's";
                assertTrue(r.err().contains(why) || r.err().contains("not a flag of perftest's"), r.err());
                assertFalse(r.err().contains("Unknown option"), r.err());
            }
        }
    }

    @Test
    void aRefusedFlagAmongValidOnesIsStillRefusedAndTheHelpDoesNotListRefusals() {
        CliRunner r = CliRunner.run("write-bw", "-s", "64", "--reversed", "-D", "4", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertEquals("jperf: write-bw: --reversed: jperf does not support this perftest flag yet"
                + " (docs/perftest-flags.md lists what jperf supports)", r.err().strip());
        String help = CliRunner.run("write-bw", "--help").out();
        assertFalse(help.contains("--reversed"), help);
        assertTrue(help.contains("--noPeak"), help);
    }

    @Test
    void aValueWithAnEqualsSignIsRefusedToo() {
        CliRunner r = CliRunner.run("write-lat", "--latency_gap=5");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("--latency_gap: jperf does not support"), r.err());
    }
}
