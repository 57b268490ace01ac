package io.jperf.cli;

/** The {@code jperf} process entry point. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs jperf with {@code args} and returns the exit code, without exiting. */
    public static int run(String... args) {
        return JperfCommand.commandLineFor(args).execute(args);
    }
}
