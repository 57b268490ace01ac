package io.jperf.path;

import static io.jperf.path.Fixtures.healthy;
import static io.jperf.path.Fixtures.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.report.JsonWriter;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

/** {@link PathJson} and {@link PathSummary} against exact expected text. */
class PathOutputTest {

    static PathRecord vlanRecord() {
        PathRecord h = healthy("10.0.1.5", "10.0.2.7", "eth2.100");
        RdmaEnd d = h.rdma();
        RdmaEnd vlan = new RdmaEnd(d.device(), d.port(), d.linkLayer(), d.portState(), d.activeMtu(), d.gidIndex(), d.gid(),
                d.gidType(), d.netdev(), d.ifindex(), OptionalInt.of(100), true);
        return new PathRecord(vlan, h.source(), h.destination(), h.route(), h.rule(), Optional.of(ip("10.0.0.5")),
                h.netdev(), h.trafficClass(), h.numa(), List.of("example gap"));
    }

    @Test
    void jsonOfOneRecord() {
        String expected = """
                {
                  "rdma": {
                    "device": "mlx5_1",
                    "port": 1,
                    "linkLayer": "Ethernet",
                    "portState": "ACTIVE",
                    "activeMtu": 4096,
                    "gid": {
                      "index": 3,
                      "value": "0000:0000:0000:0000:0000:ffff:0a00:0105",
                      "type": "RoCE v2"
                    },
                    "netdev": "eth2.100",
                    "ifindex": 5,
                    "vlanId": 100,
                    "portHasIpGid": true,
                    "linkLayerEnum": "ETHERNET"
                  },
                  "source": "10.0.1.5",
                  "destination": "10.0.2.7",
                  "route": {
                    "table": 101,
                    "tableName": "101",
                    "type": "unicast",
                    "egress": "eth2.100",
                    "egressIfindex": 5,
                    "gateway": "10.0.1.1",
                    "preferredSource": null,
                    "matchedPrefix": "0.0.0.0/0",
                    "protocol": 4,
                    "destination": "10.0.2.7",
                    "source": "10.0.1.5"
                  },
                  "rule": {
                    "priority": 1000,
                    "text": "1000: from 10.0.1.5 lookup 101",
                    "table": 101,
                    "basis": "test",
                    "family": 2,
                    "from": "10.0.1.5/32",
                    "to": null,
                    "iif": null,
                    "oif": null,
                    "tos": 0,
                    "fwmark": 0,
                    "fwmask": 0,
                    "action": "lookup",
                    "gotoTarget": 0,
                    "invert": false,
                    "suppressPrefixLength": -1,
                    "unevaluated": []
                  },
                  "unboundSource": "10.0.0.5",
                  "netdev": {
                    "name": "eth2.100",
                    "mtu": 9000,
                    "operstate": "up",
                    "addresses": [
                      "10.0.1.5"
                    ]
                  },
                  "trafficClass": {
                    "value": 106,
                    "dscp": 26,
                    "ecn": "ECT(0)"
                  },
                  "numa": {
                    "nicNode": 1,
                    "cpu": 12,
                    "cpuNode": 1
                  },
                  "gaps": [
                    "example gap"
                  ]
                }
                """;
        assertEquals(expected, PathJson.toJson(vlanRecord()));
    }

    @Test
    void jsonWithVerdictsAndNoPeerEmbedsInAnotherDocument() {
        PathRecord r = healthy("10.0.1.5", "10.0.2.7", "eth2");
        PathRecord cross = new PathRecord(r.rdma(), r.source(), r.destination(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), new TrafficClass(0), new NumaPlacement(-1, -1, -1), List.of());
        List<Verdict> vs = Verdicts.evaluate(cross, null, Verdicts.Option.QOS_EXPECTED);
        String json = PathJson.toJson(cross, null, vs);
        assertTrue(json.contains("\"peer\": null"), json);
        assertTrue(json.contains("\"route\": null"), json);
        assertTrue(json.contains("\"id\": \"F5\""), json);
        assertTrue(json.contains("\"local.ecn\": \"Not-ECT\""), json);

        JsonWriter w = new JsonWriter().beginObject().name("path");
        PathJson.write(w, r);
        String embedded = w.endObject().toJson();
        assertTrue(embedded.startsWith("{\n  \"path\": {\n    \"rdma\": {"), embedded);
    }

    @Test
    void summaryParagraph() {
        assertEquals("Path: mlx5_1 port 1 Ethernet ACTIVE MTU 4096, GID 3 0000:0000:0000:0000:0000:ffff:0a00:0105 RoCE v2"
                        + " on eth2.100 (VLAN 100, MTU 9000, up); 10.0.1.5 -> 10.0.2.7 table 101 via rule"
                        + " \"1000: from 10.0.1.5 lookup 101\", dev eth2.100 gw 10.0.1.1 unicast"
                        + " (unbound source would be 10.0.0.5); tclass 106 (DSCP 26, ECT(0)); NIC NUMA 1, thread CPU 12 NUMA 1;"
                        + " unknown: example gap.",
                PathSummary.text(vlanRecord()));
    }

    @Test
    void summaryWithoutRouteOrNuma() {
        PathRecord r = healthy("10.0.1.5", "10.0.2.7", "eth2");
        PathRecord bare = new PathRecord(r.rdma(), Optional.empty(), r.destination(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), new TrafficClass(2), new NumaPlacement(-1, -1, -1), List.of());
        String s = PathSummary.text(bare);
        assertTrue(s.contains("; * -> 10.0.2.7 no route; tclass 2 (DSCP 0, ECT(0)); NIC NUMA none, thread CPU ? NUMA none."), s);
    }

    @Test
    void trafficClassAndEcnNames() {
        assertEquals("Not-ECT", new TrafficClass(0).ecn().label());
        assertEquals("ECT(1)", new TrafficClass(1).ecn().label());
        assertEquals("ECT(0)", new TrafficClass(2).ecn().label());
        assertEquals("CE", new TrafficClass(3).ecn().label());
        assertEquals(46, new TrafficClass(184).dscp());
        assertEquals("184 (DSCP 46, Not-ECT)", new TrafficClass(184).toString());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new TrafficClass(256));
    }

    @Test
    void addressTextLikeIp() {
        assertEquals("::", Addr.text(ip("::")));
        assertEquals("::1", Addr.text(ip("::1")));
        assertEquals("fd00::1", Addr.text(ip("fd00:0:0:0:0:0:0:1")));
        assertEquals("fe80::fc:ff:fe00:1", Addr.text(ip("fe80::fc:ff:fe00:1")));
        assertEquals("1:0:0:1::1", Addr.text(ip("1:0:0:1:0:0:0:1")), "the longest zero run is compressed");
        assertEquals("fe80::1:0:0:2", Addr.text(ip("fe80:0:0:0:1:0:0:2")), "the longest zero run, not the last");
        assertEquals("1:0:1:0:1:0:1:0", Addr.text(ip("1:0:1:0:1:0:1:0")), "single zero groups stay");
        assertEquals("10.0.0.1", Addr.text(ip("10.0.0.1")));
    }

    @Test
    void prefixContains() {
        Prefix p = new Prefix(ip("10.11.0.0"), 20);
        assertTrue(p.contains(ip("10.11.15.255")));
        assertTrue(!p.contains(ip("10.11.16.0")));
        assertTrue(!p.contains(ip("fd00::1")));
        assertTrue(new Prefix(ip("::"), 0).contains(ip("fd00::1")));
        assertEquals("fd00::/64", new Prefix(ip("fd00::"), 64).toString());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new Prefix(ip("1.2.3.4"), 33));
    }
}
