package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionTargetTest {

    @Test
    void theDefaultIsPerftestsServer() {
        ConnectionTarget t = TestOptions.builder(TestKind.WRITE_BW).build().target();
        assertEquals(ConnectionTarget.DEFAULT, t);
        assertEquals(18515, t.port());
        assertTrue(t.isServer());
        assertFalse(new ConnectionTarget("10.0.0.2", 18515, null, 1, -1, null, false).isServer());
    }

    @Test
    void loopbackHasNoServerHost() {
        OptionsException e = assertThrows(OptionsException.class,
                () -> new ConnectionTarget("10.0.0.2", 18515, null, 1, -1, null, true));
        assertEquals("loopback runs both ends in this process: do not also give a server host (10.0.0.2)",
                e.getMessage());
    }

    @Test
    void rangesNameTheFlag() {
        assertEquals("-x/--gid-index: must be between 0 and 255, or omitted for automatic choice (got 256)",
                assertThrows(OptionsException.class,
                        () -> new ConnectionTarget(null, 18515, null, 1, 256, null, false)).getMessage());
        assertEquals("-p/--port: must be between 1 and 65535 (got 0)", assertThrows(OptionsException.class,
                () -> new ConnectionTarget(null, 0, null, 1, -1, null, false)).getMessage());
        assertEquals("-d/--ib-dev: must not be empty", assertThrows(OptionsException.class,
                () -> new ConnectionTarget(null, 18515, " ", 1, -1, null, false)).getMessage());
    }
}
