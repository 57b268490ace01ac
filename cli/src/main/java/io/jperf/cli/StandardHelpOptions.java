package io.jperf.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * picocli's standard {@code -h, --help} and {@code -V, --version} options, as {@code @Command(mixinStandardHelpOptions
 * = true)} adds them (same names, description keys and descriptions), for a command whose model is built in code:
 * the annotation would make picocli read its help mixin's annotations, and the first annotation a JVM reads costs
 * tens of milliseconds of start-up (see {@link JperfCommand}).
 */
final class StandardHelpOptions {
    private StandardHelpOptions() {
    }

    /** Adds the two options to {@code spec}, after the options it has. */
    static void addTo(CommandSpec spec) {
        spec.addOption(OptionSpec.builder("-h", "--help").type(boolean.class).usageHelp(true)
                .descriptionKey("mixinStandardHelpOptions.help").description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").type(boolean.class).versionHelp(true)
                .descriptionKey("mixinStandardHelpOptions.version").description("Print version information and exit.")
                .build());
    }
}
