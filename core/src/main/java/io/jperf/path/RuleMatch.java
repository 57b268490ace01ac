package io.jperf.path;

import java.util.Objects;

/**
 * The policy rule that led the kernel to the table of a {@link Route}, and how that was decided.
 * Immutable.
 *
 * @param rule  the first rule, by priority, whose selector matches the lookup and whose table is
 *              the table the kernel answered from
 * @param basis one sentence on how the rule was determined (for the record's reader)
 */
public record RuleMatch(PolicyRule rule, String basis) {
    public RuleMatch {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(basis, "basis");
    }
}
