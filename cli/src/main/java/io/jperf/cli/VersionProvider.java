package io.jperf.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Reads the version the build wrote into {@code version.properties}. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {
            "jperf " + p.getProperty("version", "unknown"),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vm.vendor") + ")"};
    }
}
