package io.jperf.doctor;

import io.jperf.ffi.RdmaLibraries;
import io.jperf.options.ConnectionTarget;
import io.jperf.options.TestOptions;
import io.jperf.path.NetworkView;
import io.jperf.path.PathProbe;
import io.jperf.path.Rtnetlink;
import io.jperf.path.Sysfs;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Rdma;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * {@code jperf doctor}: the layered RDMA troubleshooting walk of this host (link, IP and routing,
 * RDMA devices, QoS and counters, NUMA, memlock/modules/providers) and, with a peer running
 * {@code jperf serve}, of the pair. Every check says PASS, WARN, FAIL or SKIP with the values it
 * read and, for a finding, a one-line fix; see {@link DoctorReport} for the exit status.
 *
 * <pre>{@code
 * DoctorReport report = Doctor.builder().device("mlx5_0").peer("10.0.0.2").build().run();
 * System.out.print(DoctorText.render(report, false));
 * }</pre>
 *
 * <p>The path checks are {@link io.jperf.path.PathChecks}', the ones a test's verdicts and the
 * sweep's pre-flight check run. Everything the walk reads comes through seams a test replaces:
 * sysfs/procfs under a root ({@link Sysfs}), the device list, the kernel's network view, the
 * library probe, the current CPU, source-bound reachability and the smoke tests against the peer.
 * Nothing is thrown for what the host lacks: a missing device, library or route is a check's
 * outcome.
 *
 * <p>Lifecycle: build, {@link #run()} (any number of times; each run opens and closes its own
 * resources). Threading: {@link #run()} on one thread at a time; the NUMA check reports the CPU
 * of the calling thread.
 */
public final class Doctor {
    /** The default bound on each smoke test against the peer. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    /** Lists the RDMA devices; throws (e.g. {@code RdmaUnavailableException}) when there are none to list. */
    @FunctionalInterface
    public interface DeviceSource {
        List<DeviceInfo> devices();
    }

    /** Opens the kernel's routes, rules, links and addresses; closed after the walk when {@link AutoCloseable}. */
    @FunctionalInterface
    public interface NetworkSource {
        NetworkView open() throws IOException;
    }

    /** Why the verbs and RDMA CM libraries cannot be used, empty when they load. */
    @FunctionalInterface
    public interface Libraries {
        Optional<String> problem();
    }

    /** Whether {@code target} answers an echo sent from {@code netdev}'s address within {@code timeout}. */
    @FunctionalInterface
    public interface Pinger {
        boolean reachable(String netdev, InetAddress target, Duration timeout) throws IOException;
    }

    /** Runs one short test against the peer's {@code jperf serve}. Must not throw. */
    @FunctionalInterface
    public interface SmokeRunner {
        /**
         * @param servePeerAddress the peer address the server should use (a rail), or null for the
         *                         one the control connection reaches
         */
        SmokeResult run(TestOptions options, String servePeerAddress, Duration timeout);
    }

    /**
     * A rail to check against the peer: this host's device and the peer's address on that rail.
     *
     * @param device      the local RDMA device, e.g. {@code rxe1}
     * @param peerAddress the peer's address on the rail, e.g. {@code 10.20.1.2}
     */
    public record Rail(String device, String peerAddress) {
        public Rail {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(peerAddress, "peerAddress");
        }

        /** Parses {@code DEV=ADDR}. */
        public static Rail parse(String text) {
            int eq = text.indexOf('=');
            if (eq <= 0 || eq == text.length() - 1 || text.indexOf('=', eq + 1) >= 0) {
                throw new IllegalArgumentException("a rail is DEV=PEER_ADDR (e.g. rxe1=10.20.1.2), got '" + text + "'");
            }
            return new Rail(text.substring(0, eq).strip(), text.substring(eq + 1).strip());
        }

        @Override
        public String toString() {
            return device + "=" + peerAddress;
        }
    }

    final Optional<String> device;
    final int ibPort;
    final Optional<String> peer;
    final int port;
    final List<Rail> rails;
    final boolean qosExpected;
    final int trafficClass;
    final Duration timeout;
    final Sysfs sysfs;
    final DeviceSource devices;
    final NetworkSource network;
    final Libraries libraries;
    final IntSupplier cpu;
    final Pinger pinger;
    final SmokeRunner smoke;
    final String hostName;

    private Doctor(Builder b) {
        this.device = Optional.ofNullable(b.device);
        this.ibPort = b.ibPort;
        this.peer = Optional.ofNullable(b.peer);
        this.port = b.port;
        this.rails = List.copyOf(b.rails);
        this.qosExpected = b.qosExpected;
        this.trafficClass = b.trafficClass;
        this.timeout = b.timeout;
        this.sysfs = b.sysfs;
        this.devices = b.devices;
        this.network = b.network;
        this.libraries = b.libraries;
        this.cpu = b.cpu;
        this.pinger = b.pinger;
        this.smoke = b.smoke;
        this.hostName = b.hostName != null ? b.hostName : localHostName();
    }

    /** A builder wired to this host: {@code /}, libibverbs, rtnetlink, ICMP, real smoke tests. */
    public static Builder builder() {
        return new Builder();
    }

    /** Walks every layer and returns what it found. */
    public DoctorReport run() {
        List<Check> checks = new ArrayList<>();
        try (HostFacts facts = HostFacts.gather(this)) {
            checks.addAll(LinkChecks.run(facts));
            checks.addAll(RouteChecks.run(facts));
            checks.addAll(DeviceChecks.run(facts));
            checks.addAll(QosChecks.run(facts));
            checks.addAll(NumaChecks.run(facts));
            checks.addAll(SystemChecks.run(facts));
            if (peer.isPresent()) {
                checks.addAll(PeerChecks.run(facts));
            }
        }
        return new DoctorReport(hostName, device, peer, checks);
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** Configures a walk; the defaults read this host. Not thread-safe. */
    public static final class Builder {
        private String device;
        private int ibPort = -1;
        private String peer;
        private int port = ConnectionTarget.DEFAULT_PORT;
        private final List<Rail> rails = new ArrayList<>();
        private boolean qosExpected;
        private int trafficClass;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Sysfs sysfs = Sysfs.live();
        private DeviceSource devices = Rdma::devices;
        private NetworkSource network = Rtnetlink::open;
        private Libraries libraries = () -> RdmaLibraries.isAvailable() ? Optional.empty()
                : Optional.of(String.valueOf(RdmaLibraries.unavailabilityCause().getMessage()));
        private IntSupplier cpu = PathProbe::schedGetcpu;
        private Pinger pinger = Builder::ping;
        private SmokeRunner smoke = new LiveSmokeRunner();
        private String hostName;

        private Builder() {
        }

        /** Only this RDMA device ({@code -d}); null for all. */
        public Builder device(String value) {
            this.device = value;
            return this;
        }

        /** Only this port of each device ({@code -i}); -1 (default) for all. */
        public Builder ibPort(int value) {
            this.ibPort = value;
            return this;
        }

        /** Check the pair against {@code jperf serve} on this host (name or address); null for none. */
        public Builder peer(String value) {
            this.peer = value;
            return this;
        }

        /** The peer's {@code jperf serve} TCP port (default 18515). */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        /** Check these rails against the peer (each: local device, peer address), instead of one pair. */
        public Builder rails(List<Rail> value) {
            this.rails.clear();
            this.rails.addAll(value);
            return this;
        }

        /** The fabric has a lossless/ECN class for RDMA: check the traffic class (F5). */
        public Builder qosExpected(boolean value) {
            this.qosExpected = value;
            return this;
        }

        /** The traffic class tests will use ({@code --tclass}, default 0), for the F5 check. */
        public Builder trafficClass(int value) {
            this.trafficClass = value;
            return this;
        }

        /** The bound on each smoke test and reachability probe against the peer. */
        public Builder timeout(Duration value) {
            this.timeout = Objects.requireNonNull(value, "timeout");
            return this;
        }

        /** Where sysfs and procfs are read (a fixture tree in tests). */
        public Builder sysfs(Sysfs value) {
            this.sysfs = Objects.requireNonNull(value, "sysfs");
            return this;
        }

        public Builder devices(DeviceSource value) {
            this.devices = Objects.requireNonNull(value, "devices");
            return this;
        }

        public Builder network(NetworkSource value) {
            this.network = Objects.requireNonNull(value, "network");
            return this;
        }

        public Builder libraries(Libraries value) {
            this.libraries = Objects.requireNonNull(value, "libraries");
            return this;
        }

        /** The calling thread's CPU, -1 if unknown. */
        public Builder cpu(IntSupplier value) {
            this.cpu = Objects.requireNonNull(value, "cpu");
            return this;
        }

        public Builder pinger(Pinger value) {
            this.pinger = Objects.requireNonNull(value, "pinger");
            return this;
        }

        public Builder smoke(SmokeRunner value) {
            this.smoke = Objects.requireNonNull(value, "smoke");
            return this;
        }

        /** The name the report gives this host (default: the local host name). */
        public Builder hostName(String value) {
            this.hostName = value;
            return this;
        }

        public Doctor build() {
            if (!rails.isEmpty() && peer == null) {
                throw new IllegalArgumentException("rails are checked against a peer: give the peer's jperf serve host too");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is not a TCP port (1..65535)");
            }
            if (trafficClass < 0 || trafficClass > 255) {
                throw new IllegalArgumentException("traffic class " + trafficClass + " is not a byte (0..255)");
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the timeout must be positive, got " + timeout);
            }
            return new Doctor(this);
        }

        /**
         * ICMP echo from the netdev's address as root ({@link InetAddress#isReachable(NetworkInterface, int, int)});
         * without the privilege the JDK tries TCP port 7 instead, where a refusal also counts as reachable.
         */
        private static boolean ping(String netdev, InetAddress target, Duration timeout) throws IOException {
            NetworkInterface nif = NetworkInterface.getByName(netdev);
            if (nif == null) {
                throw new IOException("no network interface named " + netdev);
            }
            return target.isReachable(nif, 0, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        }
    }
}
