package koala.api.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An entity's client of its runner, whose address is in a file its launcher keeps: the runner of the
 * start went with its host (nothing answers at port 9), and once the file names the runner started in
 * its place, the next call goes there.
 */
class RunnerAddressTest {
    @Test
    void callsGoToTheAddressTheFileNamesAtEachCall(@TempDir Path dir) throws Exception {
        JsonHttpServer moved = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        moved.route("GET", "/status", r -> Response.ok(new RunnerMessages.Status(31, "moved", "RUNNING", "static",
                java.util.List.of(), null, java.util.List.of(), java.util.List.of(), 0, 0, java.util.List.of())));
        moved.start();
        try {
            URI gone = URI.create("http://127.0.0.1:9");
            Path file = Files.writeString(dir.resolve("runner-url"), gone + "\n");
            RunnerClient client = new RunnerClient(() -> RunnerClient.addressIn(file, gone), TokenSource.fixed("t"));

            assertThatThrownBy(client::status).isInstanceOf(ApiException.class);
            Files.writeString(file, "http://127.0.0.1:" + moved.port() + "\n");
            assertThat(client.status().instance()).isEqualTo(31);
        } finally {
            moved.close();
        }
    }

    @Test
    void aFileMissingEmptyOrUnreadableLeavesTheAddressOfTheStart(@TempDir Path dir) throws Exception {
        URI given = URI.create("http://fs0-n3:41000");
        assertThat(RunnerClient.addressIn(dir.resolve("none"), given)).isEqualTo(given);
        assertThat(RunnerClient.addressIn(Files.writeString(dir.resolve("empty"), "\n"), given)).isEqualTo(given);
        assertThat(RunnerClient.addressIn(Files.writeString(dir.resolve("bad"), "http://a b\n"), given)).isEqualTo(given);
        assertThat(RunnerClient.addressIn(Files.writeString(dir.resolve("moved"), "http://koala-b:42000\n"), given))
                .isEqualTo(URI.create("http://koala-b:42000"));
    }
}
