package koala.scheduler.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.http.JsonHttpServer;
import koala.http.Response;

/**
 * The scheduler's live page, {@code GET /} (and {@code /live}): one HTML file from the class path
 * ({@code live.html} beside this class) whose inline script polls {@code GET /sites}, {@code /jobs}
 * and {@code /frameworks} every 2 s and draws sites, jobs and framework instances, each instance's
 * allocated and busy workers over time as an SVG line chart.
 *
 * <p><b>Who may see what.</b> The page holds no data and no secret, so it is served to anyone who
 * reaches the listener. Its data calls are ordinary API calls: each carries
 * {@code Authorization: Bearer TOKEN}, a user's token from {@code koala token create}, which the page
 * asks for once and keeps in the tab's {@code sessionStorage}; without a valid one every data route
 * answers 401 and the page asks again. A token is never put in an address (logged by proxies and
 * kept in histories) nor in a cookie (sent by the browser on its own, so another site's page could
 * make requests with it): only the page's own script sends it, and only to this origin. The page
 * makes GETs only, so it changes nothing; a user sees what {@code koala jobs}, {@code koala sites}
 * and {@code koala frameworks} show them: every user's jobs and instances.
 *
 * <p><b>Headers.</b> A {@code Content-Security-Policy} lets the page run its own inline script and
 * style, named by their SHA-256 hashes (computed here when the page is read), and nothing else:
 * no other script, no style attribute in markup, connections to its own origin only, no framing
 * ({@code frame-ancestors 'none'}, and {@code X-Frame-Options: DENY} for older browsers), no form
 * posting anywhere; {@code Referrer-Policy: no-referrer}; {@code Cache-Control: no-store}.
 * {@code X-Content-Type-Options: nosniff} goes with every answer of the server.
 */
public final class LivePage {
    static final String RESOURCE = "live.html";
    private static final Pattern SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern STYLE = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL);

    private final byte[] html;
    private final Map<String, String> headers;

    private LivePage(String html) {
        this.html = html.getBytes(StandardCharsets.UTF_8);
        this.headers = headers(html);
    }

    /** The page shipped with the scheduler. */
    public static LivePage load() {
        try (InputStream in = LivePage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path beside " + LivePage.class);
            }
            return new LivePage(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** {@code GET /} and {@code GET /live} on {@code server}, open to anyone who reaches it (the page holds no data). */
    public void register(JsonHttpServer server) {
        server.route("GET", "/", r -> page()).route("GET", "/live", r -> page());
    }

    Response page() {
        return Response.raw("text/html; charset=utf-8", html, headers);
    }

    /** The response headers the page goes with. */
    Map<String, String> headers() {
        return headers;
    }

    private static Map<String, String> headers(String html) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Security-Policy", "default-src 'none'; script-src " + hash(SCRIPT, html) + "; style-src "
                + hash(STYLE, html) + "; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
                + "frame-ancestors 'none'");
        h.put("X-Frame-Options", "DENY");
        h.put("Referrer-Policy", "no-referrer");
        h.put("Cache-Control", "no-store");
        return Map.copyOf(h);
    }

    /** {@code 'sha256-...'} of the one element {@code pattern} finds, as a CSP source names an inline script or style. */
    private static String hash(Pattern pattern, String html) {
        Matcher m = pattern.matcher(html);
        if (!m.find()) {
            throw new IllegalStateException(RESOURCE + " has no " + pattern.pattern());
        }
        String content = m.group(1);
        if (m.find()) {
            throw new IllegalStateException(RESOURCE + " has more than one " + pattern.pattern() + ": one of each is hashed");
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
            return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
