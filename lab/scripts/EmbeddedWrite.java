import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.PerftestTextReport;

/**
 * jperf embedded in a Java application, for lab/scripts/compare-perftest.sh: the application calls
 * the library's {@link PerfTest} API as the README's library section shows, with no JVM flag but
 * {@code --enable-native-access=ALL-UNNAMED}, and prints the result rows in perftest's layout (the
 * rows compare-perftest.sh reads). Compiled against the jperf jar and run from its class path:
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp cli/target/jperf.jar:DIR EmbeddedWrite TEST
 *     -d DEV [-x GID] [-p PORT] [-s SIZE] [-n ITERS] [--cpu N] [--report_gbits] [-R] [-F] [SERVER]
 * </pre>
 * TEST is a jperf test name ({@code write-bw}, {@code read-bw}, {@code send-lat}, ...); {@code bw} and
 * {@code lat} mean the write tests. Exit status 0 with a result, 1 when the test failed (the message on stderr), 2 on a usage error.
 */
public final class EmbeddedWrite {
    public static void main(String[] args) {
        if (args.length < 1) {
            usage("the first argument is the test, e.g. write-bw, read-bw, send-lat (bw, lat: write)");
        }
        String test = switch (args[0]) {
            case "bw", "lat" -> "write-" + args[0];
            default -> args[0];
        };
        TestKind kind;
        try {
            kind = TestKind.valueOf(test.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            usage("unknown test " + args[0]);
            return;
        }
        boolean bw = test.endsWith("-bw");
        TestOptions.Builder b = TestOptions.builder(kind);
        int cpu = -1;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-d" -> b.device(value(args, ++i));
                case "-x" -> b.gidIndex(Integer.parseInt(value(args, ++i)));
                case "-p" -> b.port(Integer.parseInt(value(args, ++i)));
                case "-s" -> b.size(value(args, ++i));
                case "-n" -> b.iterations(Integer.parseInt(value(args, ++i)));
                case "--cpu" -> cpu = Integer.parseInt(value(args, ++i));
                case "--report_gbits" -> b.reportGbits(true);
                case "-R" -> b.rdmaCm(true);
                case "-F" -> { } // perftest's CPU-frequency check; jperf has none
                default -> {
                    if (a.startsWith("-")) {
                        usage("unknown option " + a);
                    }
                    b.serverHost(a);
                }
            }
        }
        try {
            TestOptions options = b.build();
            PerfTestResult result = PerfTest.of(options).cpu(cpu).run();
            PerftestTextReport report = new PerftestTextReport();
            if (bw) {
                System.out.print(report.bandwidthTableHeader(result.bandwidth().getFirst().unit(), OutputMode.NONE));
                result.bandwidth().forEach(r -> System.out.print(report.bandwidthRow(r, OutputMode.NONE)));
            } else {
                System.out.print(report.latencyTableHeader(OutputMode.NONE));
                result.latency().forEach(r -> System.out.print(report.latencyRow(r, OutputMode.NONE)));
            }
            System.out.print(report.tableFooter(OutputMode.NONE));
        } catch (RuntimeException e) {
            System.err.println("EmbeddedWrite: " + e.getMessage());
            System.exit(1);
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String why) {
        System.err.println("EmbeddedWrite: " + why
                + "; usage: EmbeddedWrite TEST|bw|lat -d DEV [-x GID] [-p PORT] [-s SIZE] [-n ITERS] [--cpu N] [--report_gbits] [-R] [SERVER]");
        System.exit(2);
    }
}
