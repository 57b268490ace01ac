package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OutputOptionsTest {

    @Test
    void theDefaultIsTheFullTextReport() {
        assertEquals(OutputOptions.DEFAULT, TestOptions.builder(TestKind.WRITE_LAT).build().output());
    }

    @Test
    void aJsonReportNeedsExactlyAFile() {
        assertEquals("--out_json_file: a JSON report needs a file name", assertThrows(OptionsException.class,
                () -> new OutputOptions(OutputMode.NONE, true, null, null, null)).getMessage());
        assertThrows(OptionsException.class,
                () -> new OutputOptions(OutputMode.NONE, false, Path.of("x.json"), null, null));
        assertEquals(Path.of("x.json"), new OutputOptions(OutputMode.NONE, true, Path.of("x.json"), null, null)
                .jsonFile());
    }

    @Test
    void theModeIsRequired() {
        assertThrows(NullPointerException.class, () -> new OutputOptions(null, false, null, null, null));
    }
}
