package koala.scheduler.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import koala.testbed.Testbed;

/**
 * The testbed's ordinary users calling the scheduler's Unix socket as themselves: {@code curl}
 * run under {@code runuser}, so the kernel, not the test, says who is calling.
 */
final class Users {
    private Users() {
    }

    /** What the scheduler answered: the HTTP status and the body. */
    record Reply(int status, String body) {
    }

    static boolean exist() {
        return Testbed.USERS.stream().allMatch(u -> run(List.of("id", "-u", u)).status() == 0);
    }

    /** {@code user} calls {@code method path} with {@code json} (null for none) on the socket. */
    static Reply call(String user, Path socket, String method, String path, String json, String... headers) {
        List<String> line = new ArrayList<>(List.of("runuser", "-u", user, "--", "curl", "-sS", "--max-time", "60",
                "--unix-socket", socket.toString(), "-X", method, "-w", "\n%{http_code}"));
        for (String header : headers) {
            line.addAll(List.of("-H", header));
        }
        if (json != null) {
            line.addAll(List.of("-H", "Content-Type: application/json", "--data-binary", json));
        }
        line.add("http://koala" + path);
        Reply raw = run(line);
        if (raw.status() != 0) {
            throw new AssertionError(user + ": curl failed (" + raw.status() + "): " + raw.body());
        }
        int cut = raw.body().lastIndexOf('\n');
        return new Reply(Integer.parseInt(raw.body().substring(cut + 1).trim()), raw.body().substring(0, cut));
    }

    /**
     * {@code user} streams {@code bytes} of zeros as the body of {@code POST path} (chunked: curl
     * does not know the length); the reply's body is how many bytes the server took before it
     * answered and closed.
     */
    static Reply flood(String user, Path socket, String path, long bytes) {
        List<String> line = List.of("runuser", "-u", user, "--", "sh", "-c", "head -c " + bytes + " /dev/zero | curl -sS "
                + "--max-time 60 --unix-socket " + socket + " -X POST -H 'Content-Type: application/json' -T - "
                + "-o /dev/null -w '%{size_upload}\n%{http_code}' http://koala" + path);
        Reply raw = run(line);
        String[] out = raw.body().strip().split("\n");
        return new Reply(Integer.parseInt(out[out.length - 1].trim()), out[out.length - 2].trim());
    }

    private static Reply run(List<String> line) {
        try {
            Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + line);
            }
            return new Reply(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
