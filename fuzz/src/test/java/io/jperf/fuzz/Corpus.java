package io.jperf.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The committed seed inputs under {@code src/test/resources/corpus/<target>/}: {@code *.hex} files
 * hold bytes as hex (white space and {@code #} comments ignored), {@code *.txt} files hold their
 * bytes as they are. The fuzzers mutate these ({@link Mutator}). Add a file to keep an input that
 * once found a bug.
 */
public final class Corpus {
    private Corpus() {
    }

    public static List<byte[]> load(String target) {
        URL url = Corpus.class.getClassLoader().getResource("corpus/" + target);
        if (url == null) {
            throw new IllegalStateException("no corpus for " + target + " on the test class path");
        }
        List<byte[]> seeds = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".hex")) {
                    seeds.add(hex(Files.readString(f)));
                } else if (name.endsWith(".txt")) {
                    seeds.add(Files.readAllBytes(f));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (seeds.isEmpty()) {
            throw new IllegalStateException("the corpus for " + target + " is empty");
        }
        return seeds;
    }

    static byte[] hex(String text) {
        StringBuilder digits = new StringBuilder();
        for (String line : text.split("\n")) {
            int hash = line.indexOf('#');
            digits.append((hash >= 0 ? line.substring(0, hash) : line).replaceAll("\\s+", ""));
        }
        return HexFormat.of().parseHex(digits);
    }

    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
