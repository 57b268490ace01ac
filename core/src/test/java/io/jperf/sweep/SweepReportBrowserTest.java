package io.jperf.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jperf.report.RunInfo;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sweep report in a real browser: a synthetic sweep ({@link SweepFixtures#bwSmallAndLarge()})
 * rendered by headless Chromium through {@code lab/scripts/screenshot-report.sh --dump-dom} (one
 * browser run gives the screenshot and the DOM it built after layout); the screenshot
 * must have the window's size, be far from one blank colour and show the bar colours (normal, best,
 * worst), and the DOM Chromium built must hold the four charts and no error text.
 *
 * <p>Without Chromium the tests are skipped with one line saying so, except under CI
 * ({@code CI=true}), where a missing Chromium fails them ({@code .ci/run} installs it). The
 * screenshot is left in {@code target/sweep-browser/}; {@code -Djperf.sweep.screenshot=FILE} also
 * copies it there (how {@code docs/sweep-report.png} is made). One Chromium start: about 5 s.
 */
@Tag("browser")
class SweepReportBrowserTest {

    static final int WIDTH = 1100;
    static final int HEIGHT = 2000;
    static final Path SCRIPT = Path.of("..", "lab", "scripts", "screenshot-report.sh");
    static final Path DIR = Path.of("target", "sweep-browser");
    /** What the command line in the picture says (the real one would be Surefire's JVM). */
    static final RunInfo RUN = new RunInfo(RunInfo.libraryVersion(), "jperf sweep write-bw 10.20.0.2 --rails "
            + "rxe0=10.20.0.2,rxe1=10.20.1.2 --sizes 2,64,4K,64K --tclasses 106 -x 1 --report_gbits --html sweep.html",
            "lab-a");

    static Path html;
    static Path png;
    /** The browser run's exit code and its output: the DOM on success, else the script's message. */
    static Result run;

    @BeforeAll
    static void renderAndLookForChromium() throws Exception {
        Files.createDirectories(DIR);
        html = DIR.resolve("sweep-report.html");
        Files.writeString(html, SweepHtmlReport.render(SweepFixtures.bwSmallAndLarge(), RUN));
        if (!hasChromium()) {
            String why = "SweepReportBrowserTest skipped: Chromium is not installed (apt-get install chromium)";
            if ("true".equals(System.getenv("CI"))) {
                fail(why.replace("skipped", "failed") + "; CI must run it (.ci/run installs it)");
            }
            System.err.println(why);
            Assumptions.abort(why);
        }
        png = DIR.resolve("sweep-report.png");
        Files.deleteIfExists(png);
        run = script(List.of("--dump-dom", html.toString(), png.toString()));
    }

    private static boolean hasChromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            for (String b : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, b))) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void screenshotHasTheWindowSizeAndShowsTheCharts() throws Exception {
        assertEquals(0, run.exit(), run.output());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(WIDTH, img.getWidth(), "width");
        assertEquals(HEIGHT, img.getHeight(), "height");
        Set<Integer> colours = new HashSet<>();
        long nonWhite = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                if (rgb != 0xffffff) {
                    nonWhite++;
                }
            }
        }
        assertTrue(colours.size() > 100, "not one blank colour: " + colours.size() + " colours");
        assertTrue(nonWhite > img.getWidth() * img.getHeight() / 4 / 20, "at least 5 % painted: " + nonWhite);
        // bars of ~18 x 300 px: blue and green ones whole, the worst one under the hatch of its F2 ERROR
        assertTrue(pixelsOf(img, SvgCharts.BAR) > 5000, "normal bars: " + pixelsOf(img, SvgCharts.BAR));
        assertTrue(pixelsOf(img, SvgCharts.BEST) > 3000, "the best bar: " + pixelsOf(img, SvgCharts.BEST));
        assertTrue(pixelsOf(img, SvgCharts.WORST) > 150, "the worst bar: " + pixelsOf(img, SvgCharts.WORST));
        String copy = System.getProperty("jperf.sweep.screenshot");
        if (copy != null && !copy.isBlank()) {
            Files.copy(png, Path.of(copy), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void theDomChromiumBuiltHasEveryChartAndNoErrorText() throws Exception {
        assertEquals(0, run.exit(), run.output());
        String dom = run.output();
        List<String> charts = new ArrayList<>();
        Matcher m = Pattern.compile("<svg[^>]*\\bclass=\"chart [^\"]*\"[^>]*\\bid=\"([a-z-]+)\"").matcher(dom);
        while (m.find()) {
            charts.add(m.group(1));
        }
        assertEquals(List.of("rate-chart", "bar-chart", "size-chart", "rate-size-chart"), charts, "the four charts");
        assertEquals(8, count(dom, "<tbody class=\"choice "), "one table row per choice");
        assertEquals(7, count(dom, "<rect class=\"bar "), "a bar per choice that ran");
        assertTrue(dom.contains("jperf sweep: write-bw against"), "the title");
        assertTrue(dom.contains(RUN.commandLine()), "the command line");
        for (String bad : List.of("parsererror", "This page contains the following errors", "NaN", "Infinity")) {
            assertFalse(dom.contains(bad), bad);
        }
    }

    private static long pixelsOf(BufferedImage img, String hex) {
        int want = Integer.parseInt(hex.substring(1), 16);
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                if (near(rgb >> 16, want >> 16) && near(rgb >> 8, want >> 8) && near(rgb, want)) {
                    n++;
                }
            }
        }
        return n;
    }

    private static boolean near(int a, int b) {
        return Math.abs((a & 0xff) - (b & 0xff)) <= 3;
    }

    private static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }

    record Result(int exit, String output) {
    }

    /** Runs the screenshot script with a 90 s bound; stdout and stderr together. */
    static Result script(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JPERF_SCREENSHOT_SIZE", WIDTH + "x" + HEIGHT);
        pb.environment().put("JPERF_SCREENSHOT_TIMEOUT", "60");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("screenshot-report.sh did not end within 90 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
