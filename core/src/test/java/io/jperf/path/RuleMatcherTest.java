package io.jperf.path;

import static io.jperf.path.Fixtures.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RuleMatcherTest {

    static final PolicyRule LOCAL = PolicyRule.lookup(2, 0, null, null, 255);
    static final PolicyRule MAIN = PolicyRule.lookup(2, 32766, null, null, 254);
    static final PolicyRule DEFAULT = PolicyRule.lookup(2, 32767, null, null, 253);
    static final PolicyRule RAIL1 = PolicyRule.lookup(2, 1000, new Prefix(ip("10.11.0.2"), 32), null, 101);

    static Route route(String dst, String src, int table, RouteType type, Optional<Prefix> matched) {
        return new Route(ip(dst), Optional.ofNullable(src).map(Fixtures::ip), table, type, 4, Optional.of("eth2"),
                Optional.empty(), Optional.empty(), matched, -1);
    }

    static Route unicast(String dst, String src, int table) {
        return route(dst, src, table, RouteType.UNICAST, Optional.empty());
    }

    static long matched(List<PolicyRule> rules, Route r) {
        RuleMatcher.Outcome o = RuleMatcher.match(rules, r);
        return o.match().orElseThrow(() -> new AssertionError(o.note())).rule().priority();
    }

    @Test
    void perRailRuleWinsForItsSource() {
        List<PolicyRule> rules = List.of(LOCAL, RAIL1, MAIN, DEFAULT);
        assertEquals(1000, matched(rules, unicast("198.51.100.7", "10.11.0.2", 101)));
        assertEquals(32766, matched(rules, unicast("198.51.100.7", "10.10.0.2", 254)));
        assertEquals(32766, matched(rules, unicast("198.51.100.7", null, 254)), "no source: from 0.0.0.0");
    }

    @Test
    void orderIsByPriorityNotByListOrder() {
        List<PolicyRule> rules = List.of(MAIN, DEFAULT, PolicyRule.lookup(2, 100, null, null, 254), LOCAL);
        assertEquals(100, matched(rules, unicast("198.51.100.7", null, 254)));
    }

    @Test
    void ruleWhoseTableDidNotAnswerIsPassedOver() {
        // The rail rule matches the selector, but the kernel answered from main: table 101 had no route.
        assertEquals(32766, matched(List.of(LOCAL, RAIL1, MAIN), unicast("198.51.100.7", "10.11.0.2", 254)));
    }

    @Test
    void mergedLocalTableIsAttributedToRuleZero() {
        Route lo = route("127.0.0.1", null, 254, RouteType.LOCAL, Optional.empty());
        RuleMatch m = RuleMatcher.match(List.of(LOCAL, MAIN, DEFAULT), lo).match().orElseThrow();
        assertEquals(0, m.rule().priority());
        assertTrue(m.basis().contains("merged into main"), m.basis());
        assertEquals(0, matched(List.of(LOCAL, MAIN), route("127.0.0.1", null, 255, RouteType.LOCAL, Optional.empty())));
    }

    @Test
    void destinationIifOifFwmarkTosSelectors() {
        PolicyRule to = PolicyRule.lookup(2, 10, null, new Prefix(ip("198.51.100.0"), 24), 254);
        assertTrue(RuleMatcher.selects(to, ip("198.51.100.7"), ip("0.0.0.0")));
        assertFalse(RuleMatcher.selects(to, ip("198.51.101.7"), ip("0.0.0.0")));
        assertTrue(RuleMatcher.selects(withSelectors(Optional.of("lo"), Optional.empty(), 0, 0, 0), ip("1.2.3.4"), ip("0.0.0.0")),
                "iif lo matches locally generated traffic");
        assertFalse(RuleMatcher.selects(withSelectors(Optional.of("eth0"), Optional.empty(), 0, 0, 0), ip("1.2.3.4"), ip("0.0.0.0")));
        assertFalse(RuleMatcher.selects(withSelectors(Optional.empty(), Optional.of("eth0"), 0, 0, 0), ip("1.2.3.4"), ip("0.0.0.0")));
        assertFalse(RuleMatcher.selects(withSelectors(Optional.empty(), Optional.empty(), 0x10, 0, 0), ip("1.2.3.4"), ip("0.0.0.0")),
                "fwmark 0x10 needs a mark the lookup does not have");
        assertTrue(RuleMatcher.selects(withSelectors(Optional.empty(), Optional.empty(), 0x10, 0x01, 0), ip("1.2.3.4"), ip("0.0.0.0")),
                "mark 0x10 under mask 0x01 compares 0 with 0");
        assertFalse(RuleMatcher.selects(withSelectors(Optional.empty(), Optional.empty(), 0, 0, 0x10), ip("1.2.3.4"), ip("0.0.0.0")));
    }

    @Test
    void invertedSelector() {
        PolicyRule notRail = new PolicyRule(2, 50, Optional.of(new Prefix(ip("10.11.0.0"), 16)), Optional.empty(),
                Optional.empty(), Optional.empty(), 0, 0, 0, RuleAction.TO_TABLE, 254, 0, true, -1, List.of());
        assertFalse(RuleMatcher.selects(notRail, ip("1.2.3.4"), ip("10.11.0.2")));
        assertTrue(RuleMatcher.selects(notRail, ip("1.2.3.4"), ip("10.10.0.2")));
    }

    @Test
    void gotoJumpsOverRules() {
        PolicyRule jump = new PolicyRule(2, 10, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                0, 0, 0, RuleAction.GOTO, 0, 2000, false, -1, List.of());
        PolicyRule skipped = PolicyRule.lookup(2, 1500, null, null, 254);
        PolicyRule target = PolicyRule.lookup(2, 2000, null, null, 254);
        assertEquals(2000, matched(List.of(jump, skipped, target, MAIN), unicast("1.2.3.4", null, 254)));
    }

    @Test
    void suppressPrefixLengthRejectsDefaultRoute() {
        PolicyRule suppress = new PolicyRule(2, 100, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                0, 0, 0, RuleAction.TO_TABLE, 254, 0, false, 0, List.of());
        Route viaDefault = route("1.2.3.4", null, 254, RouteType.UNICAST, Optional.of(new Prefix(ip("0.0.0.0"), 0)));
        assertEquals(32766, matched(List.of(suppress, MAIN), viaDefault));
        Route specific = route("1.2.3.4", null, 254, RouteType.UNICAST, Optional.of(new Prefix(ip("1.2.3.0"), 24)));
        assertEquals(100, matched(List.of(suppress, MAIN), specific));
    }

    @Test
    void unevaluatedSelectorsAreSkippedAndNamed() {
        PolicyRule uid = new PolicyRule(2, 5, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                0, 0, 0, RuleAction.TO_TABLE, 254, 0, false, -1, List.of("uidrange"));
        RuleMatch m = RuleMatcher.match(List.of(uid, MAIN), unicast("1.2.3.4", null, 254)).match().orElseThrow();
        assertEquals(32766, m.rule().priority());
        assertTrue(m.basis().contains("not evaluated: 5 (uidrange)"), m.basis());
    }

    @Test
    void terminalActionOrNoRuleOrNoTableExplainsItself() {
        PolicyRule unreachable = new PolicyRule(2, 5, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                0, 0, 0, RuleAction.UNREACHABLE, 0, 0, false, -1, List.of());
        assertTrue(RuleMatcher.match(List.of(unreachable, MAIN), unicast("1.2.3.4", null, 254)).note()
                .contains("did the rules change"));
        RuleMatcher.Outcome none = RuleMatcher.match(List.of(LOCAL, MAIN), unicast("1.2.3.4", null, 101));
        assertTrue(none.match().isEmpty());
        assertTrue(none.note().contains("looks up table 101"), none.note());
        assertTrue(RuleMatcher.match(List.of(MAIN), unicast("1.2.3.4", null, 0)).note().contains("RTM_F_LOOKUP_TABLE"));
    }

    @Test
    void otherFamilyRulesAreIgnored() {
        PolicyRule v6 = PolicyRule.lookup(10, 1, null, null, 254);
        assertEquals(32766, matched(List.of(v6, MAIN), unicast("1.2.3.4", null, 254)));
    }

    private static PolicyRule withSelectors(Optional<String> iif, Optional<String> oif, long mark, long mask, int tos) {
        return new PolicyRule(2, 10, Optional.empty(), Optional.empty(), iif, oif, mark, mask, tos, RuleAction.TO_TABLE,
                254, 0, false, -1, List.of());
    }
}
