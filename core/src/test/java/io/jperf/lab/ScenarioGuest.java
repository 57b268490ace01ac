package io.jperf.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.fail;

/** What a scenario test on guest A reads from its guest: the lab's variables, and B's server coming up. */
final class ScenarioGuest {
    private ScenarioGuest() {
    }

    /** A lab variable ({@code LAB_SCENARIO}, {@code LAB_PEER_IP_RAIL1}...), null when unset or blank. */
    static String env(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? null : v;
    }

    /** The port B's {@code jperf serve} listens on. */
    static int servePort() {
        return Integer.parseInt(env("SCENARIO_SERVE_PORT") != null ? env("SCENARIO_SERVE_PORT") : "18600");
    }

    /** B's {@code jperf serve} announces itself with a file once it listens (its JVM starts slowly under TCG). */
    static void awaitServer() throws InterruptedException {
        Path up = Path.of(env("LAB_SYNC"), "B.serving");
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        while (!Files.exists(up)) {
            if (System.nanoTime() > deadline) {
                fail("B's jperf serve did not come up within 240 s (" + up + ")");
            }
            Thread.sleep(200);
        }
    }
}
