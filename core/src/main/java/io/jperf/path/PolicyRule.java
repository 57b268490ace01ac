package io.jperf.path;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One policy-routing rule from the kernel's rule dump ({@code RTM_GETRULE}, like {@code ip rule}).
 * Immutable.
 *
 * @param family               2 (IPv4) or 10 (IPv6)
 * @param priority             the rule's preference; rules are tried in ascending order
 * @param from                 the source selector, empty for "from all"
 * @param to                   the destination selector, empty for "to all"
 * @param iifName              the input-interface selector ({@code iif}), empty if none
 * @param oifName              the output-interface selector ({@code oif}), empty if none
 * @param fwmark               the firewall-mark selector, 0 if none
 * @param fwmask               the mark mask, 0 if none (the kernel uses 0xffffffff when a mark is set)
 * @param tos                  the TOS selector, 0 if none
 * @param action               what the rule does when it matches
 * @param table                the table looked up for {@link RuleAction#TO_TABLE}, 0 otherwise
 * @param gotoTarget           the target priority for {@link RuleAction#GOTO}, 0 otherwise
 * @param invert               {@code not}: the selector's result is negated
 * @param suppressPrefixLength {@code suppress_prefixlength}, -1 if not set
 * @param unevaluated          selectors jperf does not evaluate (uidrange, ipproto, sport, dport,
 *                             l3mdev, tun_id, suppress_ifgroup, detached iif/oif); a rule with any of
 *                             these is never reported as the matching rule
 */
public record PolicyRule(int family, long priority, Optional<Prefix> from, Optional<Prefix> to,
                         Optional<String> iifName, Optional<String> oifName, long fwmark, long fwmask, int tos,
                         RuleAction action, long table, long gotoTarget, boolean invert, int suppressPrefixLength,
                         List<String> unevaluated) {

    public PolicyRule {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(iifName, "iifName");
        Objects.requireNonNull(oifName, "oifName");
        Objects.requireNonNull(action, "action");
        unevaluated = List.copyOf(unevaluated);
    }

    /** A plain {@code [from P] [to P] lookup TABLE} rule; for tests and hand-built records. */
    public static PolicyRule lookup(int family, long priority, Prefix from, Prefix to, long table) {
        return new PolicyRule(family, priority, Optional.ofNullable(from), Optional.ofNullable(to), Optional.empty(),
                Optional.empty(), 0, 0, 0, RuleAction.TO_TABLE, table, 0, false, -1, List.of());
    }

    /** The rule in {@code ip rule} form, e.g. {@code 1000: from 10.0.0.1 lookup 100}. */
    @Override
    public String toString() {
        List<String> words = new ArrayList<>();
        words.add(priority + ":");
        if (invert) {
            words.add("not");
        }
        words.add("from " + from.map(PolicyRule::shortPrefix).orElse("all"));
        to.ifPresent(p -> words.add("to " + shortPrefix(p)));
        if (tos != 0) {
            words.add("tos 0x" + Integer.toHexString(tos));
        }
        if (fwmark != 0 || fwmask != 0) {
            words.add("fwmark 0x" + Long.toHexString(fwmark)
                    + (fwmask != 0 && fwmask != 0xffffffffL ? "/0x" + Long.toHexString(fwmask) : ""));
        }
        iifName.ifPresent(n -> words.add("iif " + n));
        oifName.ifPresent(n -> words.add("oif " + n));
        unevaluated.forEach(words::add);
        switch (action) {
            case TO_TABLE -> words.add("lookup " + Route.tableName(table));
            case GOTO -> words.add("goto " + gotoTarget);
            default -> words.add(action.label());
        }
        if (suppressPrefixLength >= 0) {
            words.add("suppress_prefixlength " + suppressPrefixLength);
        }
        return String.join(" ", words);
    }

    private static String shortPrefix(Prefix p) {
        return p.length() == p.address().getAddress().length * 8 ? Addr.text(p.address()) : p.toString();
    }
}
