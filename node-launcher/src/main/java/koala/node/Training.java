package koala.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import koala.common.json.PlainJson;

/**
 * The class archive's training run ({@code NodeLauncher --train}): a launcher's whole path — arrival,
 * its task, an entity started and beating, its end reported — against a stand-in scheduler and runner
 * on this host's loopback, so that the archive holds every class a real pilot loads
 * ({@link koala.process.ClassArchive}). It talks to nothing else and exits.
 */
final class Training {
    private Training() {
    }

    static int run() throws IOException, InterruptedException {
        try (ServerSocket server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress())) {
            String url = "http://127.0.0.1:" + server.getLocalPort();
            Thread standIn = new Thread(() -> answerUntilClosed(server, url), "training stand-in");
            standIn.setDaemon(true);
            standIn.start();
            java.nio.file.Path tokenFile = java.nio.file.Files.createTempFile("koala-training-", ".token");
            java.nio.file.Files.writeString(tokenFile, "training");
            return NodeLauncher.of(new String[] {"--scheduler", url, "--node", "1.0.0", "--give-up", "10", "--cores", "1"},
                    NodeLauncher.token(java.util.Optional.of(tokenFile.toString()))).run();
        }
    }

    private static void answerUntilClosed(ServerSocket server, String url) {
        while (!server.isClosed()) {
            try (Socket client = server.accept()) {
                String path = requestPath(client.getInputStream());
                respond(client.getOutputStream(), PlainJson.write(answer(path, url)));
            } catch (IOException e) {
                return;
            }
        }
    }

    /** What the scheduler or the runner would answer: a 0.2 s entity that beats every 50 ms. */
    private static Map<String, Object> answer(String path, String url) {
        if (path.endsWith("/arrive")) {
            return Map.of("action", "RUN", "executable", "/bin/sleep", "arguments", List.of("0.2"),
                    "environment", Map.of("KOALA_RUNNER_URL", url, "KOALA_RUNNER_TOKEN", "training", "KOALA_SITE", "training"));
        }
        if (path.endsWith("/hello")) {
            return Map.of("heartbeatMillis", 50, "runnerGoneMillis", 5000, "nodeKey", "training-key", "token", "training");
        }
        if (path.endsWith("/heartbeat")) {
            return Map.of("action", "KEEP", "heartbeatMillis", 50, "token", "training");
        }
        return Map.of("action", "EXIT");
    }

    /** Reads a request to the end of its body; answers its path. */
    private static String requestPath(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("request cut short");
            }
            head.append((char) c);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return head.substring(head.indexOf(" ") + 1, head.indexOf(" HTTP/"));
    }

    private static void respond(OutputStream out, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }
}
