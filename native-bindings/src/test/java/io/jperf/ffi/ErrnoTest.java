package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

class ErrnoTest {

    private static final List<String> REQUIRED = List.of("EPERM", "ENOENT", "EINTR", "EIO", "ENXIO", "E2BIG",
            "EBADF", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "EBUSY", "EEXIST", "ENODEV", "EINVAL", "ENFILE",
            "EMFILE", "ENOSPC", "EPIPE", "ERANGE", "ENOSYS", "EOPNOTSUPP", "EADDRINUSE", "EADDRNOTAVAIL",
            "ENETDOWN", "ENETUNREACH", "ECONNABORTED", "ECONNRESET", "ENOBUFS", "ETIMEDOUT", "ECONNREFUSED",
            "EHOSTDOWN", "EHOSTUNREACH", "EPROTONOSUPPORT", "EAFNOSUPPORT", "ENOTCONN");

    @Test
    void namesAndFallback() {
        assertEquals("ENOSYS", Errno.name(38));
        assertEquals("ENODEV", Errno.name(Errno.ENODEV));
        assertEquals("ETIMEDOUT", Errno.name(110));
        assertEquals("E?9999", Errno.name(9999));
        assertEquals("E?-1", Errno.name(-1));
        assertEquals("E?0", Errno.name(0));
        List<String> known = Arrays.asList(Errno.knownNames());
        List<String> missing = REQUIRED.stream().filter(n -> !known.contains(n)).toList();
        assertTrue(missing.isEmpty(), "missing names: " + missing);
    }

    @Test
    void describeUsesStrerrorAndFormatCombinesBoth() {
        assertTrue(Errno.describe(38).toLowerCase(Locale.ROOT).contains("not implemented"), Errno.describe(38));
        assertTrue(Errno.describe(Errno.ENODEV).toLowerCase(Locale.ROOT).contains("device"), Errno.describe(19));
        assertFalse(Errno.describe(9999).isBlank());
        assertEquals("ENOSYS (38): " + Errno.describe(38), Errno.format(38));
    }

    @Test
    void numbersMatchTheCHeaders() throws IOException {
        NativeToolchain.requireGccAndHeaders();
        String[] names = Errno.knownNames();
        StringBuilder c = new StringBuilder("#include <errno.h>\n#include <stdio.h>\nint main(void) {\n");
        int count = 0;
        for (int errno = 0; errno < names.length; errno++) {
            if (names[errno] != null) {
                c.append("    printf(\"%s %d\\n\", \"").append(names[errno]).append("\", ").append(names[errno]).append(");\n");
                count++;
            }
        }
        c.append("    return 0;\n}\n");
        Path dir = NativeToolchain.workDir();
        Path source = dir.resolve("errno_check.c");
        Path binary = dir.resolve("errno_check");
        Files.writeString(source, c);
        NativeToolchain.gcc("-o", binary.toString(), source.toString());
        NativeToolchain.Result run = NativeToolchain.run(List.of(binary.toString()));
        assertEquals(0, run.exitCode(), run.output());

        List<String> mismatches = new ArrayList<>();
        List<String> lines = run.output().lines().toList();
        for (String line : lines) {
            String[] f = line.split(" ");
            int value = Integer.parseInt(f[1]);
            if (!f[0].equals(Errno.name(value))) {
                mismatches.add(f[0] + " is " + value + " in <errno.h> but Errno.name(" + value + ") = " + Errno.name(value));
            }
        }
        assertEquals(count, lines.size(), "one line per known name");
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
    }
}
