package koala.scheduler.api;

import java.time.Duration;
import java.time.InstantSource;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.TokenView;
import koala.auth.Identity;
import koala.auth.SystemAccounts;
import koala.auth.TokenRefused;
import koala.auth.Tokens;
import koala.common.failure.Forbidden;
import koala.http.ApiException;
import koala.http.PeerCredentials;
import koala.http.Request;

/**
 * Who sent a request: over the scheduler's Unix socket, the user the kernel names
 * ({@code SO_PEERCRED}); otherwise the user named by a token the scheduler signed
 * ({@code Authorization: Bearer koala1....}). Anyone else gets a 401 saying how to identify.
 */
public final class Callers {
    static final String UNIX = "unix socket";
    static final String TOKEN = "token";

    private final Tokens tokens;
    private final Admins admins;
    private final InstantSource clock;

    public Callers(Tokens tokens, Admins admins, InstantSource clock) {
        this.tokens = tokens;
        this.admins = admins;
        this.clock = clock;
    }

    /**
     * The caller, or, when an admin sends {@link SchedulerClient#ACT_FOR}, the user they act for
     * (as that user, not as an admin; the audit log names both).
     */
    public Caller of(Request r) {
        Caller caller = identified(r);
        String user = r.header(SchedulerClient.ACT_FOR).map(String::strip).orElse("");
        return user.isEmpty() || user.equals(caller.user()) ? caller : actingFor(caller, user);
    }

    private Caller actingFor(Caller admin, String user) {
        if (!admin.admin()) {
            throw new Forbidden(admin.user() + " may not act for " + user + ": only admins may (root and the members of "
                    + admins.group() + ")", SchedulerClient.ACT_FOR);
        }
        int uid = admins.uid(user).orElseThrow(() -> ApiException.badRequest(SchedulerClient.ACT_FOR,
                "no account '" + user + "' on this host"));
        return new Caller(user, uid, false, admin.via() + " for admin " + admin.user());
    }

    /** The caller the kernel or the token names, acting for nobody. */
    Caller identified(Request r) {
        if (r.peer().credentials().isPresent()) {
            PeerCredentials c = r.peer().credentials().get();
            return new Caller(c.user(), c.uid(), admins.isAdmin(c.user(), c.uid()), UNIX);
        }
        String header = r.header("Authorization").orElse("");
        if (header.isEmpty()) {
            throw new ApiException(401, "who is calling? Call through the scheduler's Unix socket (bin/koala does), "
                    + "or send 'Authorization: Bearer TOKEN' with a token from 'koala token create'");
        }
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiException(401, "unsupported authorization: send 'Authorization: Bearer TOKEN'");
        }
        try {
            Identity who = tokens.verify(header.substring(7).strip(), clock.instant());
            if (!SystemAccounts.mayHaveToken(who.uid())) { // one issued before system accounts were refused tokens
                throw new ApiException(401, "this token names " + who + ", a system account: its tokens are refused "
                        + "(call as a user)");
            }
            return new Caller(who.user(), who.uid(), admins.isAdmin(who.user(), who.uid()), TOKEN);
        } catch (TokenRefused e) {
            throw new ApiException(401, e.getMessage());
        }
    }

    /**
     * A token naming {@code caller} for {@code lifetime} from now; none for a system account other
     * than root ({@link SystemAccounts#mayHaveToken}), admin or not.
     */
    TokenView issue(Caller caller, Duration lifetime) {
        if (!SystemAccounts.mayHaveToken(caller.uid())) {
            throw new Forbidden(SystemAccounts.mayNotHaveToken(caller.user(), caller.uid()));
        }
        String token = tokens.issue(new Identity(caller.user(), caller.uid()), clock.instant(), lifetime);
        return new TokenView(token, caller.user(), caller.uid(), Tokens.expiry(token));
    }
}
