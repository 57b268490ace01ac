package io.jperf.engine;

import io.jperf.fuzz.Corpus;
import io.jperf.fuzz.FuzzRun;
import io.jperf.fuzz.Mutator;
import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The serve request handler's pure part on mutated requests: parsing ({@link ServeRequest}),
 * option validation, the requested address and GID, and the budget ({@link ServeBudget}). Every
 * request is either refused with a safe one-line reason, or within the budget by the server's own
 * estimate. Any other exception is a crash.
 */
class ServeRequestFuzz {
    private static final TestOptions SERVER = TestOptions.builder(TestKind.WRITE_BW).port(18515).build();
    private static final ServeLimits LIMITS = ServeLimits.DEFAULTS.withMaxDuration(Duration.ofSeconds(120));

    @Test
    void everyRequestIsRefusedInOneSafeLineOrFitsTheBudget() {
        List<byte[]> seeds = Corpus.load("serve-request");
        FuzzRun.<byte[]>of("ServeRequest + ServeBudget", 30_000, 1000).run(r -> Mutator.next(seeds, r, 128), input -> {
            Map<String, String> fields = fields(Corpus.text(input));
            TestOptions o;
            try {
                TestOptions.Builder b = ServeRequest.apply(fields, SERVER);
                ServeRequest.literalAddress(fields);
                ServeRequest.clientGid(fields);
                o = b.build();
            } catch (OptionsException e) {
                assertOneSafeLine(e.getMessage());
                return;
            }
            try {
                ServeBudget.check(o.params(), LIMITS);
            } catch (ServeRefusedException e) {
                assertOneSafeLine(e.getMessage());
                return;
            }
            assertTrue(ResourceEstimate.of(o.params()).totalBytes() <= LIMITS.maxMemoryBytes(), o.toString());
            if (o.isDuration()) {
                assertTrue(o.params().durationSeconds() <= LIMITS.maxDuration().toSeconds());
            } else {
                assertTrue(ServeBudget.leastSeconds(o.params()) <= LIMITS.maxDuration().toSeconds());
            }
        });
    }

    /** The fields as the extension decoder would give them (the first '=' splits). */
    static Map<String, String> fields(String text) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                f.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return f;
    }

    private static void assertOneSafeLine(String message) {
        assertFalse(message.contains("\n"), message);
        assertTrue(Mutator.safeText(message, false), message);
        assertTrue(message.length() < 2048, "length " + message.length());
    }
}
