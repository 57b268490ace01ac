package io.jperf.cli;

import io.jperf.doctor.Doctor;
import io.jperf.doctor.DoctorJson;
import io.jperf.doctor.DoctorReport;
import io.jperf.doctor.DoctorText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.Console;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code jperf doctor}: the layered RDMA troubleshooting walk, with evidence. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {
            DoctorCommand.SUMMARY,
            "Every check prints PASS, WARN, FAIL or SKIP with the values it read, and a one-line fix for a finding.",
            "With --peer HOST (running `jperf serve`) it checks the pair too: an echo from the rail's address, the"
                + " server, a short write-bw and write-lat, MTU, GID types and both directions' routes from the path"
                + " records the ends exchange, and the counters' change meanwhile. --rail checks more rails through"
                + " the same server."})
final class DoctorCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Walks this host layer by layer as an RDMA engineer would: link (state, carrier, speed, MTU) -> IP (addresses,"
            + " per-rail routes, source rules) -> RDMA devices (ports, GID table, the GID tests choose, MTU) -> QoS"
            + " and counters (errors, retransmits, CNP/ECN) -> NUMA -> memlock, kernel modules, verbs providers.";

    @Spec
    CommandSpec spec;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "Only this RDMA device (default: all).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "N", description = "Only this port of each device (default: all).")
    Integer ibPort;

    @Option(names = "--peer", paramLabel = "HOST", description = "Check the pair against `jperf serve` on HOST.")
    String peer;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "The peer's jperf serve port (default 18515).")
    Integer port;

    @Option(names = "--rail", paramLabel = "DEV=PEER_ADDR", split = ",",
            description = "With --peer: check this rail (local device, the peer's address on it) through the same"
                + " server; repeat or comma-separate for several. Default: one pair, on -d or the device whose"
                + " subnet holds HOST.")
    List<String> rails = new ArrayList<>();

    @Option(names = "--qos-expected",
            description = "The fabric has a lossless/ECN class for RDMA: check the traffic class (F5).")
    boolean qosExpected;

    @Option(names = "--tclass", paramLabel = "TC", description = "The traffic class tests will use (default 0).")
    Integer trafficClass;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "Bound on each smoke test against the peer (default 20).")
    Integer timeoutSeconds;

    @Option(names = "--json", description = "Print JSON with the same content instead of text.")
    boolean json;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            description = "Colour the verdicts: auto (on a terminal, unless NO_COLOR is set), always, never.")
    String color;

    @Override
    public Integer call() {
        Doctor.Builder b = Doctor.builder().device(device).peer(peer).qosExpected(qosExpected);
        if (ibPort != null) {
            if (ibPort < 1) {
                throw usage("-i/--ib-port must be 1 or more, got " + ibPort);
            }
            b.ibPort(ibPort);
        }
        try {
            List<Doctor.Rail> parsed = new ArrayList<>();
            for (String r : rails) {
                parsed.add(Doctor.Rail.parse(r));
            }
            b.rails(parsed);
            if (port != null) {
                b.port(port);
            }
            if (trafficClass != null) {
                b.trafficClass(trafficClass);
            }
            if (timeoutSeconds != null) {
                if (timeoutSeconds < 1) {
                    throw new IllegalArgumentException("--timeout must be 1 second or more, got " + timeoutSeconds);
                }
                b.timeout(Duration.ofSeconds(timeoutSeconds));
            }
            if (!List.of("auto", "always", "never").contains(color)) {
                throw new IllegalArgumentException("--color takes auto, always or never, got '" + color + "'");
            }
            if ((port != null || !rails.isEmpty()) && peer == null) {
                throw new IllegalArgumentException((port != null ? "-p/--port" : "--rail") + " needs --peer HOST");
            }
            Doctor doctor = b.build();
            DoctorReport report = doctor.run();
            PrintWriter out = spec.commandLine().getOut();
            out.print(json ? DoctorJson.render(report) + "\n" : DoctorText.render(report, colour()));
            out.flush();
            return report.exitCode();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private boolean colour() {
        if (color.equals("always")) {
            return true;
        }
        if (color.equals("never") || System.getenv("NO_COLOR") != null || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        Console console = System.console();
        return console != null && console.isTerminal();
    }
}
