package io.jperf.path;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds the policy rule behind a kernel route answer.
 *
 * <p>The kernel does not say which rule it used, only which table answered
 * ({@code RTM_F_LOOKUP_TABLE}). The rule is reconstructed by replaying the rule walk for the same
 * flow the route query described: an output lookup from {@code SRC} (or {@code 0.0.0.0}) to
 * {@code DST}, input interface {@code lo} (the kernel's {@code iif} for locally generated
 * traffic), no output interface, fwmark 0, TOS 0. Rules are tried in priority order; the answer
 * is the first rule whose selector matches (honouring {@code not}) and whose action is
 * {@code lookup T} with {@code T} equal to the answering table, unless
 * {@code suppress_prefixlength} would have rejected the matched prefix. A matching rule that
 * looks up another table is passed over (that lookup must have found nothing), {@code nop} is
 * passed over, and {@code goto} jumps to its target priority. Rules with selectors this class
 * does not evaluate (uidrange, ipproto, ports, l3mdev, tun_id, suppress_ifgroup, detached
 * interfaces) are never chosen and are named in the basis.
 *
 * <p>Merged tables: while no custom rule was ever added, the kernel keeps the local table inside
 * the main table's trie and reports table 254 (main) even for local routes (e.g. 127.0.0.1). A
 * {@code local}/{@code broadcast} route answered from table 254 is therefore also accepted by a
 * {@code lookup local} rule, and the basis says so.
 *
 * <p>Public for the other packages that explain a route (e.g. {@code io.jperf.cm}'s route
 * explainer), so that there is one rule walk. Stateless and thread-safe.
 */
public final class RuleMatcher {

    private static final String LOOPBACK = "lo";
    private static final long MAIN_TABLE = 254;
    private static final long LOCAL_TABLE = 255;

    private RuleMatcher() {
    }

    /**
     * The match, or the reason there is none.
     *
     * @param match the rule and how it was determined, empty when no rule could be determined
     * @param note  when {@code match} is empty, one sentence on why (for the reader); else empty
     */
    public record Outcome(Optional<RuleMatch> match, String note) {
        public Outcome {
            Objects.requireNonNull(match, "match");
            Objects.requireNonNull(note, "note");
        }
    }

    /**
     * The rule behind {@code route}, from the policy rules of the route's family as
     * {@code network} reports them.
     *
     * @param network where the rules come from (the same kernel that answered {@code route})
     * @param route   the kernel's answer to a route query
     * @throws IOException when the rules cannot be read
     */
    public static Outcome match(NetworkView network, Route route) throws IOException {
        return match(network.rules(NlCodec.family(route.destination())), route);
    }

    /**
     * The rule behind {@code route}, by replaying the kernel's rule walk (see the class comment).
     *
     * @param rules the policy rules, in any order; rules of the other family are ignored
     * @param route the kernel's answer to a route query; its {@link Route#table()} must be the
     *              answering table ({@code RTM_F_LOOKUP_TABLE}), else there is no match
     * @return the first rule, by priority, that leads to the answering table, or why there is none
     */
    public static Outcome match(List<PolicyRule> rules, Route route) {
        if (route.table() == 0) {
            return new Outcome(Optional.empty(), "the kernel did not report the answering table (RTM_F_LOOKUP_TABLE)");
        }
        int family = NlCodec.family(route.destination());
        InetAddress src = route.source().orElseGet(() -> any(route.destination()));
        List<PolicyRule> ordered = new ArrayList<>(rules.stream().filter(r -> r.family() == family).toList());
        ordered.sort(Comparator.comparingLong(PolicyRule::priority));
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            PolicyRule rule = ordered.get(i);
            if (!rule.unevaluated().isEmpty()) {
                skipped.add(rule.priority() + " (" + String.join(",", rule.unevaluated()) + ")");
                continue;
            }
            if (!selects(rule, route.destination(), src)) {
                continue;
            }
            switch (rule.action()) {
                case TO_TABLE -> {
                    boolean merged = rule.table() == LOCAL_TABLE && route.table() == MAIN_TABLE
                            && (route.type() == RouteType.LOCAL || route.type() == RouteType.BROADCAST);
                    if (rule.table() != route.table() && !merged) {
                        continue;
                    }
                    if (rule.suppressPrefixLength() >= 0 && route.matchedPrefix().isPresent()
                            && route.matchedPrefix().get().length() <= rule.suppressPrefixLength()) {
                        continue;
                    }
                    return new Outcome(Optional.of(new RuleMatch(rule, basis(route, src, skipped, merged))), "");
                }
                case GOTO -> {
                    int target = -1;
                    for (int j = i + 1; j < ordered.size(); j++) {
                        if (ordered.get(j).priority() == rule.gotoTarget()) {
                            target = j;
                            break;
                        }
                    }
                    if (target > 0) {
                        i = target - 1;
                    }
                }
                case NOP -> {
                }
                default -> {
                    return new Outcome(Optional.empty(), "rule " + rule + " matches and ends the walk with "
                            + rule.action().label() + ", yet the kernel answered from table " + route.tableName()
                            + ": did the rules change between the lookup and the dump?");
                }
            }
        }
        return new Outcome(Optional.empty(), "no rule matching from " + Addr.text(src) + " to "
                + Addr.text(route.destination()) + " looks up table " + route.tableName()
                + (skipped.isEmpty() ? "" : "; not evaluated: rules " + String.join(", ", skipped)));
    }

    /** {@code true} if the rule's selector (with {@code not}) matches the output flow src to dst. */
    static boolean selects(PolicyRule rule, InetAddress dst, InetAddress src) {
        boolean m = rule.from().map(p -> p.contains(src)).orElse(true)
                && rule.to().map(p -> p.contains(dst)).orElse(true)
                && rule.iifName().map(LOOPBACK::equals).orElse(true)
                && rule.oifName().isEmpty()
                && rule.tos() == 0;
        long mask = rule.fwmask() != 0 ? rule.fwmask() : (rule.fwmark() != 0 ? 0xffffffffL : 0);
        m &= (rule.fwmark() & mask) == 0; // the lookup's mark is 0
        return rule.invert() != m;
    }

    private static String basis(Route route, InetAddress src, List<String> skipped, boolean merged) {
        return "first rule by priority whose selector matches the lookup (from " + Addr.text(src) + " to "
                + Addr.text(route.destination()) + ", iif lo, no oif, fwmark 0, tos 0) and that looks up table "
                + (merged ? "local: the kernel answered main (254) with a " + route.type().label()
                        + " route, which lives in the local table merged into main while no custom rules exist"
                        : route.tableName() + ", the table the kernel answered from (RTM_F_LOOKUP_TABLE)")
                + (skipped.isEmpty() ? "" : "; rules not evaluated: " + String.join(", ", skipped));
    }

    private static InetAddress any(InetAddress sameFamily) {
        try {
            return InetAddress.getByAddress(new byte[sameFamily.getAddress().length]);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
