package io.jperf.cli;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.PerfTest;
import io.jperf.options.OptionsException;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** How a test runs beyond perftest's parameters, shared by write-bw, write-lat, serve and sweep. */
final class RunFlags {
    @Option(names = "--qos", description = "The fabric has a lossless/ECN class for RDMA: report traffic class 0 or"
            + " non-ECN-capable marking as a path problem (F5).")
    boolean qosExpected;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Warm the data path up before measuring so the"
            + " JIT has compiled it: write-bw writes at least this long before the first size, then on until the JIT has"
            + " compiled nothing for a quarter of it (at most 10 times as long); write-lat runs 40960 unmeasured"
            + " rounds when the peer is jperf, fewer where they would take more than 10 times as long; against"
            + " perftest, which takes no part, write-lat warms up on a QP connected to itself as write-bw does. 0"
            + " turns it off (default 1).")
    Double warmupSeconds;

    @Option(names = "--cpu", paramLabel = "N", description = "Pin the test thread (not the whole JVM) to CPU N;"
            + " the JIT and GC threads keep the other CPUs. The path record shows where the thread ran. When both"
            + " ends share a host with few CPUs, also run the JVM under taskset -c N so that its other threads stay"
            + " off the peer's CPU.")
    Integer cpu;

    @Option(names = "--auth-token-file", paramLabel = "FILE", description = "The shared secret of `jperf serve`"
            + " (at least 16 characters): serve requires its clients to prove it, a client proves it. It never goes on"
            + " the wire (HMAC-SHA256 challenge-response). Default: the " + AuthSecret.ENVIRONMENT + " environment"
            + " variable, else none.")
    Path authTokenFile;

    /** Refuses out-of-range values with exit 2. */
    void validate() {
        authSecret();
        if (warmupSeconds != null && !(warmupSeconds >= 0 && warmupSeconds <= 600)) {
            throw new UsageException("--warmup must be between 0 and 600 seconds (got " + warmupSeconds + ")");
        }
        if (cpu != null && cpu < 0) {
            throw new UsageException("--cpu must be a CPU number, 0 or more (got " + cpu + ")");
        }
        if (cpu != null) {
            int highest = highestCpu();
            if (cpu > highest) {
                throw new UsageException("--cpu " + cpu + ": this host's CPUs are 0-" + highest
                        + " (/sys/devices/system/cpu/possible; `nproc` and `taskset -p $$` show those allowed)");
            }
        }
    }

    /** The highest CPU number the kernel knows, from sysfs; the CPU count when sysfs cannot tell. */
    static int highestCpu() {
        try {
            String possible = Files.readString(Path.of("/sys/devices/system/cpu/possible")).strip();
            String last = possible.substring(possible.lastIndexOf(',') + 1);
            return Integer.parseInt(last.substring(last.lastIndexOf('-') + 1));
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors() - 1;
        }
    }

    int cpuOrNone() {
        return cpu == null ? -1 : cpu;
    }

    Duration warmup() {
        return warmupSeconds == null ? PerfTest.DEFAULT_WARMUP : Duration.ofNanos((long) (warmupSeconds * 1e9));
    }

    /** The shared secret from --auth-token-file, else the environment; an unreadable or short one is exit 2. */
    Optional<AuthSecret> authSecret() {
        try {
            return authTokenFile != null ? Optional.of(AuthSecret.fromFile(authTokenFile)) : AuthSecret.fromEnvironment();
        } catch (OptionsException e) {
            throw new UsageException(e.getMessage());
        }
    }

    PerfTest applyTo(PerfTest test) {
        return test.qosExpected(qosExpected).cpu(cpuOrNone()).warmup(warmup()).authSecret(authSecret().orElse(null));
    }
}
