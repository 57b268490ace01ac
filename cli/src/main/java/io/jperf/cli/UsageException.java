package io.jperf.cli;

import io.jperf.JperfException;

/** Invalid options or combinations, found before anything was touched. Exit code 2. */
final class UsageException extends JperfException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(Category.INVALID_INPUT, message);
    }
}
