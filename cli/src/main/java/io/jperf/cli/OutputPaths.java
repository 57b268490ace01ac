package io.jperf.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Checks the files a command will write before it starts, so a bad path fails in one line, not after a run. */
final class OutputPaths {
    private OutputPaths() {
    }

    /**
     * Refuses (exit 2) a path that names a directory, lies in a folder that does not exist, or cannot be
     * written; does nothing for null.
     */
    static void requireWritable(Path file, String option) {
        if (file == null) {
            return;
        }
        Path absolute = file.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            throw new UsageException(option + ": " + file + " is a directory; give a file name");
        }
        Path dir = absolute.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UsageException(option + ": folder " + dir + " does not exist; create it or give another path");
        }
        boolean writable = Files.exists(absolute) ? Files.isWritable(absolute) : Files.isWritable(dir);
        if (!writable) {
            throw new UsageException(option + ": " + file + " cannot be written (permissions of "
                    + (Files.exists(absolute) ? "the file" : "folder " + dir) + ")");
        }
    }
}
