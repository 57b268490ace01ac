package io.jperf.engine;

import io.jperf.options.Connection;
import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServeRequestTest {
    private static final TestOptions SERVER = TestOptions.builder(TestKind.WRITE_BW).port(20000).device("rxe9")
            .ibPort(2).build();

    @Test
    void theServerRunsTheClientsTestWithItsOwnPortAndEverySymmetricParameterEqual() {
        TestOptions client = TestOptions.builder(TestKind.WRITE_LAT).serverHost("10.0.0.2").port(20000)
                .device("mlx5_1").connection(Connection.RC).size(4096).iterations(777).txDepth(1)
                .inlineSize(64).mtu(1024).serviceLevel(3).trafficClass(106).qpTimeout(18).reportGbits(true).build();
        Map<String, String> fields = ServeRequest.fields(client, "10.20.1.2");
        TestOptions served = ServeRequest.apply(fields, SERVER).build();

        assertTrue(served.isServer());
        assertEquals(TestKind.WRITE_LAT, served.params().kind());
        assertEquals(20000, served.target().port());
        assertEquals(2, served.target().ibPort(), "the ib port stays the server's");
        assertEquals(client.params().symmetricParameters(), served.params().symmetricParameters());
        assertEquals(List.of(), client.params().symmetricMismatches(served.params()));
        assertEquals(64, served.params().inlineSize());
        assertTrue(served.params().inlineSizeExplicit());
        assertEquals(106, served.params().trafficClass());
        assertEquals(3, served.params().serviceLevel());
        assertEquals(18, served.params().qpTimeout());
        assertEquals(1, served.params().txDepth());
        assertEquals(Optional.of("10.20.1.2"), ServeRequest.address(fields));
    }

    @Test
    void defaultsStayDefaultsSoTheServerDerivesTheSameCqModeration() {
        TestOptions client = TestOptions.builder(TestKind.WRITE_BW).serverHost("h").size(1 << 20).numQps(4)
                .bidirectional(true).durationSeconds(5).build();
        TestOptions served = ServeRequest.apply(ServeRequest.fields(client, null), SERVER).build();
        assertEquals(client.params().cqModeration(), served.params().cqModeration());
        assertFalse(served.params().cqModerationExplicit());
        assertEquals(client.params().inlineSize(), served.params().inlineSize());
        assertEquals(4, served.params().numQps());
        assertTrue(served.params().bidirectional());
        assertEquals(5, served.params().durationSeconds());
        assertEquals(Optional.empty(), ServeRequest.address(ServeRequest.fields(client, null)));
    }

    @Test
    void aSendRequestCarriesItsRxDepthToTheServer() {
        TestOptions client = TestOptions.builder(TestKind.SEND_BW).rxDepth(64).serverHost("h").build();
        TestOptions served = ServeRequest.apply(ServeRequest.fields(client, null), SERVER).build();
        assertEquals(TestKind.SEND_BW, served.params().kind());
        assertEquals(64, served.params().rxDepth());
        TestOptions defaults = ServeRequest.apply(ServeRequest.fields(TestOptions.builder(TestKind.SEND_LAT)
                .serverHost("h").build(), null), SERVER).build();
        assertEquals(512, defaults.params().rxDepth());
    }

    @Test
    void anAtomicRequestCarriesItsOperationToTheServer() {
        TestOptions client = TestOptions.builder(TestKind.ATOMIC_LAT)
                .atomicType(io.jperf.options.AtomicType.CMP_AND_SWAP).serverHost("h").build();
        TestOptions served = ServeRequest.apply(ServeRequest.fields(client, null), SERVER).build();
        assertEquals(TestKind.ATOMIC_LAT, served.params().kind());
        assertEquals(io.jperf.options.AtomicType.CMP_AND_SWAP, served.params().atomicType());
        assertEquals(java.util.List.of(), served.params().symmetricMismatches(client.params()));
    }

    @Test
    void aBrokenOrHostileRequestIsRefusedNamingTheField() {
        Map<String, String> fields = new LinkedHashMap<>(ServeRequest.fields(
                TestOptions.builder(TestKind.WRITE_BW).serverHost("h").build(), null));
        fields.put("serve.qps", "99999999999");
        OptionsException e = assertThrows(OptionsException.class, () -> ServeRequest.apply(fields, SERVER));
        assertTrue(e.getMessage().contains("serve.qps"), e.getMessage());

        fields.put("serve.qps", "100000");
        assertThrows(OptionsException.class, () -> ServeRequest.apply(fields, SERVER).build(), "out of -q's range");

        fields.remove("serve.kind");
        assertFalse(ServeRequest.present(fields));
        e = assertThrows(OptionsException.class, () -> ServeRequest.apply(fields, SERVER));
        assertTrue(e.getMessage().contains("serve.kind"), e.getMessage());

        Map<String, String> badKind = new LinkedHashMap<>(fields);
        badKind.put("serve.kind", "ATOMIC_RATE");
        e = assertThrows(OptionsException.class, () -> ServeRequest.apply(badKind, SERVER));
        assertTrue(e.getMessage().contains("ATOMIC_RATE"), e.getMessage());
    }

    @Test
    void multiLineReasonsSurviveTheOneLineField() {
        String reason = "port 1 of rxe1 is PORT_DOWN\n  check `ip link` \\ the cable";
        String field = ServeRequest.escape(reason);
        assertFalse(field.contains("\n"));
        assertEquals(reason, ServeRequest.unescape(field));
        assertEquals("(no reason given)", ServeRequest.unescape(null));
    }
}
