package koala.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.TokenView;
import koala.auth.Tokens;
import koala.common.failure.Forbidden;
import koala.http.ApiException;
import koala.http.Endpoint;
import koala.http.Peer;
import koala.http.PeerCredentials;
import koala.http.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who a request is from, when an admin acts for a user and when someone else tries to. */
class CallersTest {
    @TempDir
    Path dir;

    @Test
    void anAdminActingForAUserIsThatUserAndNoAdmin() throws IOException {
        Caller caller = callers().of(request(new PeerCredentials(0, 0, "root", "root"), "alice"));
        assertThat(caller).isEqualTo(new Caller("alice", 1002, false, "unix socket for admin root"));
    }

    @Test
    void aMemberOfTheAdminGroupMayActForAUserToo() throws IOException {
        Caller caller = callers().of(request(new PeerCredentials(1004, 1004, "carol", "carol"), "alice"));
        assertThat(caller.user()).isEqualTo("alice");
        assertThat(caller.via()).isEqualTo("unix socket for admin carol");
    }

    @Test
    void anyoneElseActingForAUserIsRefusedNamingTheHeader() throws IOException {
        assertThatThrownBy(() -> callers().of(request(new PeerCredentials(1003, 1003, "bob", "bob"), "alice")))
                .isInstanceOfSatisfying(Forbidden.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("bob may not act for alice: only admins may (root and the "
                            + "members of koala-admin)");
                    assertThat(e.field()).isEqualTo(SchedulerClient.ACT_FOR);
                });
    }

    @Test
    void actingForNoSuchAccountIsABadRequest() throws IOException {
        assertThatThrownBy(() -> callers().of(request(new PeerCredentials(0, 0, "root", "root"), "mallory")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("no account 'mallory' on this host");
                });
    }

    @Test
    void actingForOneselfChangesNothing() throws IOException {
        Caller caller = callers().of(request(new PeerCredentials(1003, 1003, "bob", "bob"), "bob"));
        assertThat(caller).isEqualTo(new Caller("bob", 1003, false, "unix socket"));
    }

    @Test
    void aSystemAccountGetsNoTokenEvenInTheAdminGroup() throws IOException {
        for (Caller daemon : List.of(new Caller("www-data", 33, false, "unix socket"),
                new Caller("sgeadmin", 999, true, "unix socket"))) {
            assertThatThrownBy(() -> callers().issue(daemon, Duration.ofDays(366)))
                    .isInstanceOfSatisfying(Forbidden.class, e -> assertThat(e.getMessage()).isEqualTo(daemon.user()
                            + " (uid " + daemon.uid() + ") may not have a token: a token names a user or an admin to "
                            + "the scheduler, and a system account (uid below 1000, root excepted) is neither. Create it "
                            + "as an ordinary user (admins: as your own account, a member of the admin group)"));
        }
    }

    @Test
    void aSystemAccountsTokenMadeBeforeTheyWereRefusedIsRefused() throws IOException {
        Callers callers = callers();
        String old = new Tokens(() -> new byte[32]).issue(new koala.auth.Identity("www-data", 33),
                Instant.parse("2026-11-25T09:00:00Z"), Duration.ofDays(30));
        Request withToken = new Request("GET", "/jobs", Map.of(), Map.of(), new byte[0], Map.of("authorization",
                "Bearer " + old), Endpoint.DEFAULT, Peer.network(new java.net.InetSocketAddress("127.0.0.1", 40000)));

        assertThatThrownBy(() -> callers.of(withToken)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(401);
            assertThat(e.getMessage()).isEqualTo("this token names www-data (uid 33), a system account: its tokens are "
                    + "refused (call as a user)");
        });
    }

    @Test
    void rootAndUsersGetTokensNamingThem() throws IOException {
        TokenView root = callers().issue(new Caller("root", 0, true, "unix socket"), Duration.ofHours(1));
        assertThat(List.of(root.user(), root.uid(), root.expiresAt()))
                .containsExactly("root", 0, Instant.parse("2026-11-25T11:00:00Z"));
        TokenView alice = callers().issue(new Caller("alice", 1002, false, "unix socket"), Duration.ofHours(8));
        assertThat(List.of(alice.user(), alice.uid(), alice.expiresAt()))
                .containsExactly("alice", 1002, Instant.parse("2026-11-25T18:00:00Z"));
    }

    private Callers callers() throws IOException {
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\nkoala-admin:x:1010:carol,sgeadmin\n");
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                + "alice:x:1002:1002::/home/alice:/bin/sh\nbob:x:1003:1003::/home/bob:/bin/sh\n"
                + "carol:x:1004:1004::/home/carol:/bin/sh\n");
        byte[] key = new byte[32];
        return new Callers(new Tokens(() -> key), new Admins("koala-admin", group, passwd),
                InstantSource.fixed(Instant.parse("2026-11-25T10:00:00Z")));
    }

    private static Request request(PeerCredentials who, String actFor) {
        return new Request("POST", "/jobs", Map.of(), Map.of(), new byte[0],
                Map.of(SchedulerClient.ACT_FOR.toLowerCase(java.util.Locale.ROOT), actFor), Endpoint.DEFAULT,
                Peer.unix(UnixDomainSocketAddress.of("/run/koala/scheduler.sock"), who));
    }
}
