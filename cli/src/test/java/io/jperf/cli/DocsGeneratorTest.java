package io.jperf.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The completion script and man pages the build ships (cli/pom.xml runs {@link DocsGenerator} at package). */
class DocsGeneratorTest {
    private static List<String> commands() {
        List<String> all = new ArrayList<>(List.of(JperfCommand.SUBCOMMANDS));
        all.add("help");
        return all;
    }

    @Test
    void theCompletionScriptKnowsEverySubcommandAndIsValidBash(@TempDir Path dir) throws Exception {
        Path script = DocsGenerator.generate(dir);
        String text = Files.readString(script);
        for (String command : commands()) {
            assertTrue(text.contains("function _picocli_jperf_" + command.replace("-", "")) || text.contains(
                    "_picocli_jperf_" + command.replace("-", "")), "no completion function for " + command);
            assertTrue(text.contains(" " + command + " ") || text.contains("\"" + command + "\"")
                    || text.contains(" " + command + "\""), command + " not among the completion's words");
        }
        // both spellings of a perftest option complete
        assertTrue(text.contains("--out_json") && text.contains("--out-json"), "--out_json / --out-json");
        Process bash = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(30, TimeUnit.SECONDS), "bash -n did not finish");
        assertEquals(0, bash.exitValue(), "bash -n " + script + ":\n" + out);
    }

    @Test
    void thereIsAManPagePerCommandWithItsExitCodes(@TempDir Path dir) throws Exception {
        DocsGenerator.generate(dir);
        Path man = dir.resolve("man/man1");
        String top = Files.readString(man.resolve("jperf.adoc"));
        assertTrue(top.contains(":doctype: manpage"), top);
        for (String command : JperfCommand.SUBCOMMANDS) {
            Path page = man.resolve("jperf-" + command + ".adoc");
            assertTrue(Files.isRegularFile(page), page + " missing; there are " + listing(man));
            String text = Files.readString(page);
            assertTrue(text.contains("jperf-" + command), page.toString());
            assertTrue(text.contains("Exit codes") || text.contains("Exit Codes") || text.contains("EXIT"),
                    "exit codes in " + page);
            assertTrue(text.contains(ExitCodes.forCommand(command).get("0")), "exit 0's meaning in " + page);
        }
    }

    private static List<String> listing(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
