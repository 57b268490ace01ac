package io.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * perftest spells its long options with {@code _} ({@code --out_json}, {@code --bind_source_ip}), jperf's own
 * with {@code -} ({@code --peer-dev}); a user types either. Every long option whose name has one of them
 * also answers to the other spelling ({@code --out-json}, {@code --peer_dev}), listed next to it in the help.
 */
final class Spellings {
    private Spellings() {
    }

    /** The other spelling of a long option name, or null when it has neither {@code _} nor an inner {@code -}. */
    static String alternate(String name) {
        if (!name.startsWith("--")) {
            return null;
        }
        String body = name.substring(2);
        if (body.contains("_")) {
            return "--" + body.replace('_', '-');
        }
        if (body.contains("-")) {
            return "--" + body.replace('-', '_');
        }
        return null;
    }

    /** Adds the alternate spellings to every option of {@code command}'s own spec, keeping their order. */
    static void addAlternates(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        Set<String> taken = new LinkedHashSet<>(spec.optionsMap().keySet());
        List<OptionSpec> options = new ArrayList<>(spec.options());
        options.forEach(spec::remove);
        for (OptionSpec option : options) {
            Set<String> names = new LinkedHashSet<>(List.of(option.names()));
            for (String name : option.names()) {
                String other = alternate(name);
                if (other != null && !taken.contains(other)) {
                    names.add(other);
                }
            }
            spec.addOption(names.size() == option.names().length ? option
                    : option.toBuilder().names(names.toArray(String[]::new)).build());
        }
    }
}
