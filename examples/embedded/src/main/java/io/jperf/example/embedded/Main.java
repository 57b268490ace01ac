package io.jperf.example.embedded;

import io.jperf.JperfException;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;

import java.time.Duration;

/**
 * Runs an RDMA WRITE bandwidth test with both ends in this process ({@code jperf write-bw --loopback}),
 * through jperf's library API, and prints the result.
 *
 * <pre>
 * java --enable-native-access=io.jperf.ffi --illegal-native-access=deny \
 *      -p jperf-example-embedded.jar:jperf-core.jar:jperf-native-bindings.jar:HdrHistogram.jar \
 *      -m io.jperf.example.embedded [DEVICE [SERVER_DEVICE]]
 * </pre>
 *
 * <p>Exit codes as jperf's: 0 the test ran, 1 it failed, 2 invalid options, 3 no usable RDMA here, 4 a
 * verbs or system call failed.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        String device = args.length > 0 ? args[0] : null;        // null: the first device
        String serverDevice = args.length > 1 ? args[1] : null;  // null: the same device
        try {
            TestOptions options = TestOptions.builder(TestKind.WRITE_BW)
                    .device(device).size("64K").iterations(1000).loopback(true)
                    .build();
            PerfTestResult result = PerfTest.of(options).timeout(Duration.ofSeconds(30)).runLoopback(serverDevice);
            for (BandwidthResult r : result.bandwidth()) {
                System.out.printf("write-bw loopback: %d bytes x %d: %.2f %s average, %.6f Mpps%n", r.sizeBytes(),
                        r.iterations(), r.average(), r.unit().label(), r.messageRateMpps());
            }
            result.path().ifPresent(p -> p.verdicts().forEach(v -> System.out.println("path: " + v)));
        } catch (JperfException e) {
            System.out.println("embedded: " + e.getMessage() + " [" + e.category() + "]");
            System.exit(switch (e.category()) {
                case TEST_FAILED -> 1;
                case INVALID_INPUT -> 2;
                case NO_RDMA -> 3;
                case CALL_FAILED -> 4;
            });
        }
    }
}
