package io.jperf.cli;

/** Invalid options or combinations, found before anything was touched. Exit code 2. */
final class UsageException extends RuntimeException {
    UsageException(String message) {
        super(message);
    }
}
