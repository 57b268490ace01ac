package io.jperf.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Build step of the cli module (package phase, cli/pom.xml): writes jperf's bash completion script and its
 * man pages from the same command model {@code jperf} runs with (every subcommand, its options in both
 * spellings, its exit codes). Not part of the jars; picocli-codegen is a build-only dependency.
 *
 * <pre>
 * OUT/bash-completion/completions/jperf   picocli.AutoComplete (bash and zsh via bashcompinit)
 * OUT/man/man1/jperf.adoc, jperf-write-bw.adoc, ...   picocli's ManPageGenerator (AsciiDoc manpage doctype)
 * </pre>
 */
public final class DocsGenerator {
    private DocsGenerator() {
    }

    /** {@code DocsGenerator OUT_DIR}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: DocsGenerator OUT_DIR");
            System.exit(2);
        }
        generate(Path.of(args[0]));
    }

    /** Writes the completion script and the man pages under {@code out}; returns the completion script's path. */
    public static Path generate(Path out) throws IOException {
        CommandLine jperf = JperfCommand.commandLine();
        Path completion = out.resolve("bash-completion/completions/jperf");
        Files.createDirectories(completion.getParent());
        Files.writeString(completion, AutoComplete.bash("jperf", jperf));
        Path man = out.resolve("man/man1");
        Files.createDirectories(man);
        int rc = ManPageGenerator.generateManPage(man.toFile(), null, new boolean[0], false, jperf.getCommandSpec());
        if (rc != 0) {
            throw new IOException("picocli's ManPageGenerator failed with " + rc);
        }
        return completion;
    }
}
