package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Whose home an instance of the reference framework writes to: its owner's, which its pilots run as. */
class FluentDeployTest {
    @TempDir
    Path dir;

    /** An admin deploying for alice writes alice's instance under ~alice, not the site account's home. */
    @Test
    void anInstanceDeployedForAUserWritesInThatUsersHome() throws Exception {
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n"
                + "site.fs0.agent.user = koala\nsite.fs0.node.count = 8\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream was = System.out;
        System.setOut(new PrintStream(out, true));
        int status;
        try {
            status = new CommandLine(new FluentCommands()).execute("deploy", "--config", grid.toString(), "--as",
                    "alice", "--print-jdf");
        } finally {
            System.setOut(was);
        }
        assertThat(status).isZero();
        String home = koala.grid.Accounts.home("alice").orElse(Path.of("/home", "alice")).toString();
        assertThat(out.toString()).contains(home + "/koala-fluent").doesNotContain("/home/koala/koala-fluent");
    }

    @Test
    void theOwnerIsWhomTheCommandActsForElseTheCaller() {
        GridOptions as = new GridOptions();
        as.actingFor = "bob";
        assertThat(FluentCommands.owner(as)).isEqualTo("bob");
        String me = System.getProperty("user.name");
        if (!"root".equals(me)) {
            assertThat(FluentCommands.owner(new GridOptions())).isEqualTo(me);
        }
    }

    /**
     * Instance 7's master serves on fs2-n3, a node of remote site fs2: this host cannot reach it, and
     * says so instead of timing out; on a local site nothing is said.
     */
    @Test
    void aMasterOnARemoteSitesPrivateNodesIsSaidToBeUnreachable() throws Exception {
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0, fs2\nsite.fs0.sge.cell = fs0\n"
                + "site.fs2.sge.cell = fs2\nsite.fs2.ssh.host = fs2-head\nsite.fs2.ssh.user = koala\n"
                + "site.fs2.ssh.key = " + dir.resolve("key") + "\n");
        String[] site = {"fs2"};
        koala.http.JsonHttpServer scheduler = new koala.http.JsonHttpServer(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 2);
        java.time.Instant at = java.time.Instant.parse("2026-11-26T10:00:00Z");
        scheduler.route("GET", "/frameworks/{id}", r -> koala.http.Response.ok(new koala.api.scheduler.FrameworkView(
                        7, "f", "ondemand", java.util.Map.of(), "http://127.0.0.1:1", "RUNNING", java.util.List.of(site[0]),
                        new koala.api.scheduler.MasterAddress("7.0.0", site[0] + "-n3:4312"), java.util.Map.of(), at,
                        java.util.List.of(), null, "alice", null)))
                .route("GET", "/jobs/{id}", r -> koala.http.Response.ok(new koala.api.scheduler.JobView(7, "f",
                        "alice", "ALLOCATION", "RUNNING", "fcm", "high", 0, 0, null, at, java.util.List.of(
                        new koala.api.scheduler.NodeView("7.0.0", 0, 0, site[0], "RUNNING", "1", site[0] + "-n3", null,
                                "master")), java.util.List.of())));
        scheduler.start();
        try {
            GridOptions options = new GridOptions();
            options.config = grid;
            options.scheduler = java.net.URI.create("http://127.0.0.1:" + scheduler.port());

            assertThat(FluentCommands.unreachableMaster(options, options.client().framework(7))).contains("the master of instance 7 serves at "
                    + "fs2-n3:4312 on fs2, a remote site whose compute nodes only its head node reaches: this host "
                    + "cannot call it. Submit from fs2's head node (with the token in the runner's state file), or "
                    + "deploy the instance with --site naming a local site");
            site[0] = "fs0";
            assertThat(FluentCommands.unreachableMaster(options, options.client().framework(7))).isEmpty();
        } finally {
            scheduler.close();
        }
    }

    /** Alice's instance 7, asked about by root: the token comes from the file alice's runner registered. */
    @Test
    void theMastersTokenComesFromTheFileTheInstancesRunnerRegistered() throws Exception {
        Path state = Files.writeString(dir.resolve("runner-7.json"), "{\"url\": \"http://127.0.0.1:1\", \"token\": \"alices\"}");
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n");
        koala.http.JsonHttpServer scheduler = new koala.http.JsonHttpServer(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 2);
        scheduler.route("GET", "/frameworks/{id}", r -> koala.http.Response.ok(new koala.api.scheduler.FrameworkView(
                7, "f", "ondemand", java.util.Map.of(), "http://127.0.0.1:1", "RUNNING", java.util.List.of("fs0"), null,
                java.util.Map.of(), java.time.Instant.parse("2026-11-26T10:00:00Z"), java.util.List.of(), null, "alice",
                state.toString())));
        scheduler.start();
        try {
            GridOptions options = new GridOptions();
            options.config = grid;
            options.scheduler = java.net.URI.create("http://127.0.0.1:" + scheduler.port());

            assertThat(FluentCommands.token(options.client().framework(7))).isEqualTo("alices");
        } finally {
            scheduler.close();
        }
    }
}
