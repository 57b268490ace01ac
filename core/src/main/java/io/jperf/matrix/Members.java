package io.jperf.matrix;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The plain {@link ClusterMembership} value every discovery returns. Immutable.
 *
 * @param rank   this member's index in {@code hosts}
 * @param hosts  the members in rank order
 * @param source where they came from
 */
record Members(int rank, List<String> hosts, String source) implements ClusterMembership {

    Members {
        hosts = List.copyOf(hosts);
        Objects.requireNonNull(source, "source");
    }

    /**
     * Checks and builds a membership.
     *
     * @param rankName the variable or option the rank came from, for messages
     */
    static Members of(List<String> hosts, int rank, String source, String rankName) {
        if (hosts.isEmpty()) {
            throw new MembershipException(source + ": the host list is empty");
        }
        Set<String> seen = new HashSet<>();
        for (String h : hosts) {
            if (h == null || h.isBlank()) {
                throw new MembershipException(source + ": the host list has an empty name: " + hosts);
            }
            if (!seen.add(h)) {
                throw new MembershipException(source + ": the host list names " + h + " twice; every member must be a"
                        + " different host (Slurm: --ntasks-per-node=1)");
            }
        }
        if (rank < 0 || rank >= hosts.size()) {
            throw new MembershipException(rankName + "=" + rank + " is outside the " + hosts.size() + " host"
                    + (hosts.size() == 1 ? "" : "s") + " of " + source + " (0.." + (hosts.size() - 1) + ")");
        }
        return new Members(rank, hosts, source);
    }

    /** A non-negative integer from variable {@code name}, or a message naming it. */
    static int nonNegative(java.util.Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new MembershipException(name + " is not set");
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new MembershipException(name + "='" + v + "' is not a non-negative integer");
    }
}
