package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.common.json.Json;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Two real users of the head node, alice and bob, call the scheduler's Unix socket as themselves:
 * what alice owns, bob cannot cancel, grow, shrink, close or re-point (403, nothing changed, the
 * refusal in the audit log); a token alice makes names her over TCP, and nothing else gets in there.
 */
@SharesScheduler
class UsersIT {

    @Test
    void bobCannotTouchWhatAliceOwns() throws Exception {
        try (TestScheduler scheduler = TestScheduler.shared(Map.of("scheduler.maxQueuedPerUser", "1"))) {
            GridConfig grid = GridConfig.load(scheduler.config());
            Path socket = grid.schedulerSocket();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-rw-rw-");

            Users.Reply submitted = Users.call("alice", socket, "POST", "/jobs",
                    "{\"file\":\"a.jdf\",\"jdf\":\"&(resourceManagerContact = fs1)(count = 1)(executable = /bin/sleep)(arguments = 600)\"}");
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
            long job = tree(submitted).get("id").asLong();
            assertThat(tree(submitted).get("owner").asText()).isEqualTo("alice");

            Users.Reply opened = Users.call("alice", socket, "POST", "/allocations", "{\"owner\":\"fluent-alice\"}");
            assertThat(opened.status()).as(opened.body()).isEqualTo(201);
            long allocation = tree(opened).get("id").asLong();
            Users.Reply grown = Users.call("alice", socket, "POST", "/allocations/" + allocation + "/grow",
                    "{\"nodes\":1,\"role\":\"worker\",\"executable\":\"/bin/sleep\",\"arguments\":[\"600\"],\"site\":\"fs1\"}");
            assertThat(grown.status()).as(grown.body()).isEqualTo(200);
            String node = tree(grown).get("nodes").get(0).asText();
            Users.Reply registered = Users.call("alice", socket, "POST", "/frameworks", "{\"allocation\":" + allocation
                    + ",\"name\":\"fluent-alice\",\"jdfFile\":\"f.jdf\",\"jdf\":\"-\",\"policy\":\"ondemand\"}");
            assertThat(registered.status()).as(registered.body()).isEqualTo(201);
            SchedulerClient root = scheduler.asRoot();
            TestScheduler.awaitState(root, job, "RUNNING", Duration.ofSeconds(60));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> root.job(allocation).nodes().stream()
                    .allMatch(n -> n.state().equals("RUNNING")));

            // the node's token is in no SGE job's environment or arguments, and its hand-over file is gone
            NodeView running = root.job(job).nodes().get(0);
            String shown = koala.testbed.LocalUser.run(grid.site("fs1"), "qstat", "-j", running.pilot());
            assertThat(shown).contains("--token-file").doesNotContain("KOALA_NODE_TOKEN");
            // alice's pilots run as alice: SGE's accounting, fair share and file permissions see her
            assertThat(shown).containsPattern("(?m)^owner:\\s+alice$");
            java.util.regex.Matcher named = java.util.regex.Pattern.compile("(?m)^job_name:\\s+koala-([a-z0-9]+)-" + job
                    + "-").matcher(shown);
            assertThat(named.find()).as(shown).isTrue();
            String tag = named.group(1); // this scheduler's pilots: other tests' schedulers number jobs from 1 too
            String allocationPilot = root.job(allocation).nodes().get(0).pilot();
            assertThat(koala.testbed.LocalUser.run(grid.site("fs1"), "qstat", "-j", allocationPilot))
                    .containsPattern("(?m)^owner:\\s+alice$");
            java.util.regex.Matcher file = java.util.regex.Pattern.compile("--token-file,(\\S+\\.token)").matcher(shown);
            assertThat(file.find()).as(shown).isTrue();
            assertThat(Path.of(file.group(1))).doesNotExist();
            Path theirs = Path.of(file.group(1)).getParent();
            assertThat(theirs.getFileName().toString()).isEqualTo("pilots-alice");
            assertThat(Files.getOwner(theirs).getName()).isEqualTo("alice");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(theirs))).isEqualTo("rwx------");

            // one queued job per user here: alice's second waits (fs1 has 6 idle of 8), her third is refused, bob's goes
            String eight = "{\"file\":\"w.jdf\",\"jdf\":\"&(resourceManagerContact = fs1)(count = 8)(executable = /bin/true)\"}";
            Users.Reply waits = Users.call("alice", socket, "POST", "/jobs", eight);
            assertThat(waits.status()).as(waits.body()).isEqualTo(201);
            Users.Reply third = Users.call("alice", socket, "POST", "/jobs", eight);
            assertThat(third.status()).as(third.body()).isEqualTo(429);
            assertThat(tree(third).get("error").asText()).isEqualTo("alice has 1 jobs queued, the most one user may "
                    + "(scheduler.maxQueuedPerUser); wait for some to start, or cancel some");
            Users.Reply bobs = Users.call("bob", socket, "POST", "/jobs", eight);
            assertThat(bobs.status()).as(bobs.body()).isEqualTo(201);
            assertThat(tree(bobs).get("owner").asText()).isEqualTo("bob");
            root.cancel(tree(waits).get("id").asLong());
            root.cancel(tree(bobs).get("id").asLong());

            // a 2 GB body is cut off after the 1 MiB limit: the scheduler never holds it
            Users.Reply flood = Users.flood("bob", socket, "/jobs", 2L << 30);
            assertThat(flood.status()).isEqualTo(413);
            assertThat(Long.parseLong(flood.body())).as("bytes the scheduler took").isLessThan(64L << 20);

            // bob sees everyone's jobs, as qstat shows them, and may change none of alice's
            Users.Reply listed = Users.call("bob", socket, "GET", "/jobs", null);
            assertThat(listed.status()).isEqualTo(200);
            assertThat(listed.body()).contains("\"owner\":\"alice\"");
            assertRefused(Users.call("bob", socket, "DELETE", "/jobs/" + job, null),
                    "bob may not cancel job " + job + ": it belongs to alice");
            assertRefused(Users.call("bob", socket, "POST", "/allocations/" + allocation + "/grow",
                    "{\"nodes\":12,\"role\":\"worker\",\"executable\":\"/usr/bin/id\",\"arguments\":[]}"),
                    "bob may not grow allocation " + allocation + ": it belongs to alice");
            assertRefused(Users.call("bob", socket, "POST", "/allocations/" + allocation + "/release",
                    "{\"nodes\":[\"" + node + "\"]}"), "bob may not release nodes of allocation " + allocation
                    + ": it belongs to alice");
            assertRefused(Users.call("bob", socket, "DELETE", "/allocations/" + allocation, null),
                    "bob may not close allocation " + allocation + ": it belongs to alice");
            assertRefused(Users.call("bob", socket, "POST", "/frameworks/" + allocation + "/master",
                    "{\"address\":\"198.18.0.1:6666\"}"), "bob may not re-point the master of allocation " + allocation
                    + ": it belongs to alice");
            assertThat(root.job(job).state()).isEqualTo("RUNNING");
            assertThat(root.job(allocation).nodes()).extracting(NodeView::id, NodeView::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(node, "RUNNING"));
            assertThat(root.framework(allocation).master()).isNull();
            List<String> audit = Files.readAllLines(KoalaHome.dir().resolve("logs/audit.log"));
            assertThat(audit).anyMatch(l -> l.contains("\"user\":\"bob\"") && l.contains("\"action\":\"cancel\"")
                    && l.contains("\"target\":\"job " + job + "\"") && l.contains("\"outcome\":\"refused\""));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(KoalaHome.dir().resolve("logs/audit.log"))))
                    .isEqualTo("rw-------");

            // over TCP only a token gets in; alice's names her and no one else
            URI tcp = URI.create("http://127.0.0.1:" + grid.integer("scheduler.port", 0));
            JsonHttpClient anonymous = new JsonHttpClient(tcp, Duration.ofSeconds(10));
            assertStatus(() -> anonymous.get("/jobs", JsonNode.class), 401);
            assertStatus(() -> anonymous.withBearer("koala1.forged.x").get("/jobs", JsonNode.class), 401);
            Users.Reply token = Users.call("alice", socket, "POST", "/tokens", "{\"lifetimeSeconds\":600}");
            assertThat(token.status()).as(token.body()).isEqualTo(201);
            JsonHttpClient asAlice = anonymous.withBearer(tree(token).get("token").asText());
            assertThat(asAlice.get("/jobs/" + job, JobView.class).owner()).isEqualTo("alice");
            assertStatus(() -> asAlice.post("/tokens", Map.of(), JsonNode.class), 403);
            assertStatus(() -> asAlice.post("/tokens/rotate", Map.of(), JsonNode.class), 403);

            // alice may, and so may root (an admin)
            Users.Reply cancelled = Users.call("alice", socket, "DELETE", "/jobs/" + job, null);
            assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
            assertThat(TestScheduler.awaitEnd(root, job, Duration.ofSeconds(30)).state()).isEqualTo("CANCELLED");
            assertThat(root.closeAllocation(allocation).state()).isEqualTo("FINISHED");
            // her pilots were killed through her own agent: SGE lets no one else (but its managers) kill them
            Awaitility.await("alice's pilots gone").atMost(Duration.ofSeconds(60)).until(() ->
                    TestScheduler.pilotsNamedFor(grid, tag, job).isEmpty()
                            && TestScheduler.pilotsNamedFor(grid, tag, allocation).isEmpty());

            // root owns no job (KOALA runs none as root) but, an admin, may submit for a user; no one else may
            SubmitRequest trivial = new SubmitRequest("r.jdf", "&(resourceManagerContact = fs1)(count = 1)(executable = /bin/true)");
            assertThatThrownBy(() -> root.submit(trivial)).isInstanceOfSatisfying(ApiException.class, e -> {
                assertThat(e.status()).isEqualTo(403);
                assertThat(e.getMessage()).isEqualTo("root (uid 0) may not own a job: KOALA runs every job as its owner, "
                        + "and none as root or a system account (uid below 1000). Submit as an ordinary user, or, as an "
                        + "admin, for one: koala submit --as USER ...");
            });
            JobView forAlice = root.actingFor("alice").submit(trivial);
            assertThat(forAlice.owner()).isEqualTo("alice");
            assertThat(TestScheduler.awaitEnd(root, forAlice.id(), Duration.ofSeconds(60)).state()).isEqualTo("FINISHED");
            assertRefused(Users.call("bob", socket, "POST", "/jobs", "{\"file\":\"r.jdf\",\"jdf\":\"&(count = 1)"
                    + "(executable = /bin/true)\"}", SchedulerClient.ACT_FOR + ": alice"),
                    "bob may not act for alice: only admins may (root and the members of koala-admin)");
            assertThat(Files.readAllLines(KoalaHome.dir().resolve("logs/audit.log"))).anyMatch(l ->
                    l.contains("\"user\":\"alice\"") && l.contains("for admin root") && l.contains("\"action\":\"submit\""));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(KoalaHome.dir().resolve("token.key"))))
                    .isEqualTo("rw-------");

            // nothing of KOALA's is open to other users: no directory they may write, no secret they may read
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(KoalaHome.dir()))).isEqualTo("rwx------");
            List<Path> roots = new java.util.ArrayList<>(List.of(KoalaHome.dir(), KoalaHome.shared(KoalaHome.dir()), socket.getParent(),
                    scheduler.config().getParent(), Path.of("/etc/koala")));
            grid.sites().forEach(site -> site.shared().ifPresent(roots::add));
            assertThat(Exposure.under(roots)).isEmpty();
            Path planted = Files.createTempDirectory("koala-exposure-");
            Files.setPosixFilePermissions(Files.createDirectory(planted.resolve("open")), PosixFilePermissions.fromString("rwxrwxrwx"));
            Files.writeString(planted.resolve("x.token"), "t");
            Files.setPosixFilePermissions(planted.resolve("x.token"), PosixFilePermissions.fromString("rw-r--r--"));
            Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                assertThat(Exposure.under(List.of(planted))).as("the check sees what it looks for").hasSize(2);
            } finally {
                Files.delete(planted.resolve("open"));
                Files.delete(planted.resolve("x.token"));
                Files.delete(planted);
            }
        }
    }

    private static JsonNode tree(Users.Reply reply) throws Exception {
        return Json.mapper().readTree(reply.body());
    }

    private static void assertRefused(Users.Reply reply, String reason) throws Exception {
        assertThat(reply.status()).as(reply.body()).isEqualTo(403);
        assertThat(tree(reply).get("error").asText()).isEqualTo(reason);
    }

    private static void assertStatus(Runnable call, int status) {
        try {
            call.run();
            throw new AssertionError("expected HTTP " + status);
        } catch (ApiException e) {
            assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
        }
    }
}
