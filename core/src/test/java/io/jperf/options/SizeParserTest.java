package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SizeParserTest {

    @Test
    void suffixesMultiplyBy1024() {
        assertEquals(65536, SizeParser.parse("64K"));
        assertEquals(65536, SizeParser.parse("64k"));
        assertEquals(2 * 1024 * 1024, SizeParser.parse("2M"));
        assertEquals(1L << 30, SizeParser.parse("1G"));
        assertEquals(4096, SizeParser.parse(" 4096 "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "K", "abc", "12X", "-5", "1.5K", "0x10", "64KB"})
    void garbageIsRejectedWithTheFlagAndAnExample(String text) {
        OptionsException e = assertThrows(OptionsException.class, () -> SizeParser.parse(text));
        assertTrue(e.getMessage().startsWith("-s/--size: '" + text + "' is not a size"), e.getMessage());
        assertTrue(e.getMessage().contains("64K"), e.getMessage());
    }

    @Test
    void zeroAndOverflowAreRejected() {
        assertTrue(assertThrows(OptionsException.class, () -> SizeParser.parse("0")).getMessage()
                .contains("at least 1 byte"));
        assertTrue(assertThrows(OptionsException.class, () -> SizeParser.parse("99999999999G")).getMessage()
                .contains("too large"));
    }

    @Test
    void formatUsesTheLargestExactSuffix() {
        assertEquals("64K", SizeParser.format(65536));
        assertEquals("8M", SizeParser.format(1L << 23));
        assertEquals("1000", SizeParser.format(1000));
        assertEquals("2", SizeParser.format(2));
    }
}
