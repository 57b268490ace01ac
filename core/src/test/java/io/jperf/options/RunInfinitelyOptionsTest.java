package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** perftest's --run_infinitely as TestOptions takes it (perftest_parameters.c's force_dependencies). */
class RunInfinitelyOptionsTest {
    private static TestOptions.Builder client() {
        return TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.2").runInfinitely(true);
    }

    @Test
    void itRunsInIntervalsOfMinusDAndPerftestsDefaultFiveSeconds() {
        TestOptions o = client().build();
        assertTrue(o.params().runInfinitely());
        assertEquals(5, o.params().durationSeconds(), "perftest's DEF_DURATION");
        assertTrue(o.isDuration());
        assertEquals(2, client().durationSeconds(2).build().params().durationSeconds());
        assertFalse(TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.2").build().params().runInfinitely());
    }

    @Test
    void itMeasuresNoPeakAsPerftestForcesNoPeak() {
        TestOptions o = client().build();
        assertTrue(o.params().noPeak());
        assertFalse(o.params().peakEnabled());
    }

    @Test
    void bothEndsMustAgreeOnIt() {
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).build();
        assertEquals("true", client().build().params().symmetricParameters().get("--run_infinitely"));
        assertEquals(java.util.List.of("--run_infinitely: local true, remote not sent"),
                client().build().params().symmetricMismatches(server.params()).stream().filter(m -> m.startsWith("--run_inf")).toList());
        assertTrue(client().build().toBuilder().build().params().runInfinitely(), "toBuilder keeps it");
    }

    @Test
    void whatJperfCannotRunInfinitelyIsRefusedByName() {
        assertTrue(assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.WRITE_LAT).serverHost("h").runInfinitely(true).build())
                .getMessage().contains("bandwidth tests only"));
        assertTrue(assertThrows(OptionsException.class, () -> client().bidirectional(true).build())
                .getMessage().contains("-b/--bidirectional"));
        assertTrue(assertThrows(OptionsException.class, () -> client().allSizes(true).build())
                .getMessage().contains("-a/--all"));
        assertTrue(assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.SEND_BW).serverHost("h").runInfinitely(true).build())
                .getMessage().contains("send test"));
        assertTrue(TestOptions.builder(TestKind.READ_BW).serverHost("h").runInfinitely(true).build().params().runInfinitely());
    }
}
