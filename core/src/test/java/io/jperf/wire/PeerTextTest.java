package io.jperf.wire;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerTextTest {
    @Test
    void controlCharactersAreEscapedOnOneLine() {
        assertEquals("a\\x1b[31mred\\x07\\nb\\\\c", PeerText.line("a\u001b[31mred\u0007\nb\\c"));
        assertEquals("csi \\u009b2J, rlo \\u202e, del \\x7f", PeerText.line("csi \u009b2J, rlo \u202e, del \u007f"));
        assertEquals("plain text: ünïcode ok, 𝄞 too", PeerText.line("plain text: ünïcode ok, 𝄞 too"));
        assertEquals("lone \\ud834 surrogate", PeerText.line("lone \ud834 surrogate"));
    }

    @Test
    void aMessageKeepsItsLinesButNotItsEscapes() {
        assertEquals("first\n\tsecond \\x1b[2J \\r", PeerText.multiline("first\n\tsecond \u001b[2J \r"));
    }

    @Test
    void longTextIsCutWithANote() {
        String cut = PeerText.line("x".repeat(60_000));
        assertTrue(cut.startsWith("x".repeat(PeerText.MAX_LINE)), cut);
        assertTrue(cut.endsWith("... (" + (60_000 - PeerText.MAX_LINE) + " more characters)"), cut);
        assertTrue(PeerText.multiline("y".repeat(100_000)).length() < PeerText.MAX_MESSAGE + 64);
    }
}
