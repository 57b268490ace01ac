package io.jperf.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build compiles picocli from its published sources for this JDK (cli/pom.xml): a class file
 * of version 49, as picocli's own jar has, cannot go into the ahead-of-time cache.
 */
class PicocliClassFilesTest {
    @Test
    void picocliIsCompiledIntoThisModuleForThisJdk() throws IOException {
        Path location = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        assertTrue(location.endsWith(Path.of("target", "classes")), "picocli comes from the module's own classes: "
                + location);
        assertEquals(majorVersion(JperfCommand.class), majorVersion(CommandLine.class),
                "picocli's class files are of jperf's own release");
        assertTrue(majorVersion(CommandLine.class) > 49);
    }

    private static int majorVersion(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            assertNotNull(in, type.getName());
            DataInputStream data = new DataInputStream(in);
            assertEquals(0xCAFEBABE, data.readInt());
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }
}
