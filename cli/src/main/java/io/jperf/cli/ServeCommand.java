package io.jperf.cli;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.JperfServer;
import io.jperf.engine.JperfServer.Served;
import io.jperf.engine.TestListener;
import io.jperf.engine.ServeLimits;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.OptionsException;
import io.jperf.options.SizeParser;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.Verdict;
import io.jperf.wire.PeerText;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code jperf serve}: a server that stays up and runs each jperf client's test as the client asks. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {
            ServeCommand.SUMMARY,
            "perftest clients cannot use it (they do not send their parameters): for them run `jperf write-bw`"
                + " or `jperf write-lat` without a host.",
            "Prints one line per client; runs until killed, or until --count clients were served.",
            "Safe to leave running: each request is checked against --max-memory and --max-duration before anything"
                + " is allocated; a slow or silent client is dropped at its deadline (10 s to send its request,"
                + " --timeout to set up, --max-duration to run); while a test runs other clients hear \"busy, try again\"; with"
                + " --auth-token-file (or " + AuthSecret.ENVIRONMENT + ") only clients that know the secret are served;"
                + " RDMA traffic goes only to each client's own address."})
final class ServeCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Serve jperf clients one after another (write-bw, write-lat, sweep): each client sends its test"
            + " parameters and the server address to use; the test runs on the device and GID that carry that"
            + " address (default: the address the client connected to, else -d/-x).";

    @Spec
    CommandSpec spec;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "TCP control port (default 18515).")
    Integer port;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV",
            description = "Device for clients whose address is on no RDMA device (default: the first one).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "N", description = "Port of that device (default 1).")
    Integer ibPort;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX", description = "GID index on that device.")
    Integer gidIndex;

    @Option(names = {"--bind", "--bind_source_ip"}, paramLabel = "ADDR",
            description = "Listen on this address only (default: every address of this host).")
    String bindAddress;

    @Option(names = "--max-memory", paramLabel = "SIZE", defaultValue = "512M",
            description = "Refuse a test that needs more memory on this server: buffers, timestamps and queues"
                    + " together, K/M/G suffixes (default ${DEFAULT-VALUE}).")
    String maxMemory;

    @Option(names = "--max-duration", paramLabel = "SECONDS", defaultValue = "300",
            description = "Refuse a test that cannot end within this long, and stop one still running after it"
                    + " (default ${DEFAULT-VALUE}).")
    int maxDurationSeconds;

    @Option(names = "--allow-gid-mismatch",
            description = "Serve a client whose GID is not the address it connected from (e.g. a sweep over rails"
                    + " through one control address). Then a client can aim this server's RDMA traffic at any"
                    + " address: use it with --auth-token-file, on a fabric you trust.")
    boolean allowGidMismatch;

    @Option(names = "--count", paramLabel = "N", description = "Exit after serving N clients (default: never).")
    Integer count;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "Bound on every wait within one client's test (default 60).")
    Integer timeoutSeconds;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS",
            description = "Exit when no client came for this long (default: wait forever).")
    Integer idleSeconds;

    @Mixin
    RunFlags run;

    @Override
    public Integer call() throws IOException {
        if (count != null && count < 1) {
            throw new UsageException("--count must be at least 1 (got " + count + ")");
        }
        if (timeoutSeconds != null && timeoutSeconds < 1) {
            throw new UsageException("--timeout must be at least 1 second (got " + timeoutSeconds + ")");
        }
        if (idleSeconds != null && idleSeconds < 1) {
            throw new UsageException("--idle-timeout must be at least 1 second (got " + idleSeconds + ")");
        }
        if (maxDurationSeconds < 1 || maxDurationSeconds > 86_400) {
            throw new UsageException("--max-duration must be between 1 and 86400 seconds (got " + maxDurationSeconds + ")");
        }
        long maxMemoryBytes;
        try {
            maxMemoryBytes = SizeParser.parse(maxMemory);
        } catch (OptionsException e) {
            throw new UsageException("--max-memory: '" + maxMemory + "' is not a size such as 512M or 2G");
        }
        TestOptions base;
        try {
            TestOptions.Builder b = TestOptions.builder(TestKind.WRITE_BW);
            if (port != null) {
                b.port(port);
            }
            if (device != null) {
                b.device(device);
            }
            if (ibPort != null) {
                b.ibPort(ibPort);
            }
            if (gidIndex != null) {
                b.gidIndex(gidIndex);
            }
            if (bindAddress != null) {
                b.bindSourceIp(bindAddress);
            }
            base = b.build();
        } catch (OptionsException e) {
            throw new UsageException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        run.validate();
        Optional<AuthSecret> secret = run.authSecret();
        warnIfOthersCanRead(run.authTokenFile, err);
        ServeLimits limits = ServeLimits.DEFAULTS.withMaxMemory(maxMemoryBytes)
                .withMaxDuration(Duration.ofSeconds(maxDurationSeconds)).withAuthSecret(secret.orElse(null))
                .withAllowGidMismatch(allowGidMismatch);
        PerfTest template = run.applyTo(PerfTest.of(base))
                .listener(new TestListener() {
                    @Override
                    public void warning(String message) {
                        err.println("jperf serve: warning: " + message);
                        err.flush();
                    }
                })
                .timeout(timeoutSeconds != null ? Duration.ofSeconds(timeoutSeconds) : PerfTest.DEFAULT_TIMEOUT);
        Duration wait = idleSeconds != null ? Duration.ofSeconds(idleSeconds) : Duration.ofHours(1);
        int served = 0;
        int failed = 0;
        try (JperfServer server = template.serveClients(limits)) {
            server.onEvent(line -> {
                err.println("jperf serve: " + PeerText.line(line));
                err.flush();
            });
            out.println(startLine(server.port(), secret.isPresent()));
            out.flush();
            while (count == null || served < count) {
                Optional<Served> next = server.serveNext(wait);
                if (next.isEmpty()) {
                    if (idleSeconds != null) {
                        out.println("jperf serve: no client for " + idleSeconds + " s, exiting");
                        break;
                    }
                    continue;
                }
                served++;
                Served s = next.get();
                if (s.failure().isPresent()) {
                    failed++;
                }
                out.println(describe(served, s));
                out.flush();
            }
        }
        return count != null && failed > 0 ? ExitCodes.TEST_FAILED : ExitCodes.OK;
    }

    private static void warnIfOthersCanRead(java.nio.file.Path file, PrintWriter err) {
        if (file == null) {
            return;
        }
        try {
            var perms = java.nio.file.Files.getPosixFilePermissions(file);
            if (perms.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
                    || perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)) {
                err.println("jperf serve: warning: " + file + " can be read by other users; `chmod 600 " + file + "`");
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system: nothing to check
        }
    }

    /** Where it listens, who may use it, and its limits: what an operator must know at a glance. */
    String startLine(int listeningPort, boolean authenticated) {
        String where = bindAddress != null ? bindAddress + " port " + listeningPort
                : "TCP port " + listeningPort + " of every address of this host";
        String who = authenticated
                ? "clients must prove the shared secret" + (run.authTokenFile != null ? " of " + run.authTokenFile
                        : " in " + AuthSecret.ENVIRONMENT)
                : "OPEN TO ANYONE who reaches it (no shared secret: give --auth-token-file or " + AuthSecret.ENVIRONMENT + ")";
        String traffic = allowGidMismatch ? "RDMA traffic to any address a client names (--allow-gid-mismatch)"
                : "RDMA traffic only to each client's own address";
        return "jperf serve: listening on " + where + "; " + who + "; " + traffic + "; at most "
                + io.jperf.engine.ResourceEstimate.format(SizeParser.parse(maxMemory)) + " and " + maxDurationSeconds
                + " s per test" + (count != null ? "; for " + count + " client(s)" : "");
    }

    /** {@code [3] 14:02:11 10.20.0.1 write_bw rxe1 GID 3 -R tclass 106: ok 0.52 Gb/s (65536 B); path F2 ERROR}. */
    static String describe(int n, Served s) {
        StringBuilder sb = new StringBuilder().append('[').append(n).append("] ")
                .append(LocalTime.now().truncatedTo(ChronoUnit.SECONDS)).append(' ')
                .append(s.client().getHostAddress());
        s.options().ifPresent(o -> {
            sb.append(' ').append(o.params().kind().perftestName()).append(' ').append(o.target().device() == null ? "(first device)" : o.target().device());
            if (o.target().gidIndex() >= 0) {
                sb.append(" GID ").append(o.target().gidIndex());
            }
            if (o.params().rdmaCm()) {
                sb.append(" -R");
            }
            if (o.params().trafficClass() != 0) {
                sb.append(" tclass ").append(o.params().trafficClass());
            }
        });
        sb.append(": ");
        if (s.result().isPresent()) {
            sb.append("ok").append(figures(s.result().get()));
            String verdicts = s.result().get().path().map(p -> p.verdicts().stream().map(ServeCommand::tag)
                    .collect(Collectors.joining(" "))).orElse("");
            sb.append(verdicts.isEmpty() ? "; path consistent" : "; path " + verdicts);
        } else {
            RuntimeException e = s.failure().orElseThrow();
            sb.append("FAILED: ").append(PeerText.multiline(String.valueOf(e.getMessage()).lines().findFirst().orElse("")));
        }
        return sb.toString();
    }

    private static String figures(PerfTestResult r) {
        if (!r.bandwidth().isEmpty()) {
            BandwidthResult b = r.bandwidth().getLast();
            return String.format(" %.2f %s average (%d B)", b.average(), b.unit().label(), b.sizeBytes());
        }
        if (!r.latency().isEmpty()) {
            LatencyResult l = r.latency().getFirst();
            return String.format(" t_typical %.2f us (%d B)", l.typicalUs(), l.sizeBytes());
        }
        return "";
    }

    private static String tag(Verdict v) {
        return v.id() + " " + v.severity();
    }
}
