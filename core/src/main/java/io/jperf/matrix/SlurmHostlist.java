package io.jperf.matrix;

import java.util.ArrayList;
import java.util.List;

/**
 * Expands Slurm's hostlist syntax as {@code scontrol show hostnames} does: a comma-separated list
 * of groups, each a name with zero or more bracketed range lists, e.g. {@code node[001-004,007]},
 * {@code gpu-[1-2]-ib}, {@code rack[1-2]-n[01-02]} (every combination, leftmost range slowest),
 * {@code a1,b[3-4]}. A range keeps the zero padding of its lower bound ({@code 001} -> width 3).
 * Stateless.
 */
public final class SlurmHostlist {
    /** Refuses lists that would expand beyond this many hosts (a typo such as {@code [1-99999999]}). */
    public static final int MAX_HOSTS = 1 << 20;

    private SlurmHostlist() {
    }

    /**
     * @return the host names in order
     * @throws IllegalArgumentException naming the offending part of the list
     */
    public static List<String> expand(String hostlist) {
        List<String> hosts = new ArrayList<>();
        for (String group : splitGroups(hostlist.strip())) {
            expandGroup(group, hosts);
        }
        return List.copyOf(hosts);
    }

    /** Splits at commas outside brackets. */
    private static List<String> splitGroups(String list) {
        List<String> groups = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') {
                if (++depth > 1) {
                    throw new IllegalArgumentException("nested '[' at offset " + i);
                }
            } else if (c == ']') {
                if (--depth < 0) {
                    throw new IllegalArgumentException("']' without '[' at offset " + i);
                }
            } else if (c == ',' && depth == 0) {
                groups.add(list.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("'[' without ']'");
        }
        groups.add(list.substring(start));
        for (String g : groups) {
            if (g.isBlank()) {
                throw new IllegalArgumentException("an empty host name between commas");
            }
        }
        return groups;
    }

    private static void expandGroup(String group, List<String> out) {
        List<String> partial = new ArrayList<>(List.of(""));
        int i = 0;
        while (i < group.length()) {
            int open = group.indexOf('[', i);
            if (open < 0) {
                append(partial, List.of(group.substring(i)));
                break;
            }
            append(partial, List.of(group.substring(i, open)));
            int close = group.indexOf(']', open);
            append(partial, ranges(group.substring(open + 1, close), group));
            if (partial.size() + out.size() > MAX_HOSTS) {
                throw new IllegalArgumentException("'" + group + "' expands to more than " + MAX_HOSTS + " hosts");
            }
            i = close + 1;
        }
        for (String h : partial) {
            if (!h.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '_')) {
                throw new IllegalArgumentException("'" + h + "' is not a host name (letters, digits, '-', '.', '_')");
            }
        }
        out.addAll(partial);
    }

    private static void append(List<String> partial, List<String> suffixes) {
        List<String> next = new ArrayList<>(partial.size() * suffixes.size());
        for (String p : partial) {
            for (String s : suffixes) {
                next.add(p + s);
            }
        }
        partial.clear();
        partial.addAll(next);
    }

    /** {@code 001-004,007} -> 001, 002, 003, 004, 007. */
    private static List<String> ranges(String spec, String group) {
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("empty brackets in '" + group + "'");
        }
        List<String> values = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            int dash = part.indexOf('-');
            String lo = dash < 0 ? part : part.substring(0, dash);
            String hi = dash < 0 ? part : part.substring(dash + 1);
            if (!digits(lo) || !digits(hi)) {
                throw new IllegalArgumentException("'" + part + "' in '" + group + "' is not a number or a range"
                        + " such as 01-04");
            }
            long from = Long.parseLong(lo);
            long to = Long.parseLong(hi);
            if (to < from) {
                throw new IllegalArgumentException("the range " + part + " in '" + group + "' runs backwards");
            }
            if (to - from + values.size() >= MAX_HOSTS) {
                throw new IllegalArgumentException("the range " + part + " in '" + group + "' has more than " + MAX_HOSTS
                        + " values");
            }
            int width = lo.length() > 1 && lo.charAt(0) == '0' ? lo.length() : 0;
            for (long v = from; v <= to; v++) {
                String s = Long.toString(v);
                values.add(s.length() < width ? "0".repeat(width - s.length()) + s : s);
            }
        }
        return values;
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.length() <= 18 && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
