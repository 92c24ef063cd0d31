package koala.scheduler.api;

import java.time.Duration;
import java.time.InstantSource;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.TokenView;
import koala.auth.Identity;
import koala.auth.SystemAccounts;
import koala.auth.TokenRefused;
import koala.auth.Tokens;
import koala.auth.Vouchers;
import koala.common.failure.Forbidden;
import koala.http.ApiException;
import koala.http.PeerCredentials;
import koala.http.Request;

/**
 * Who sent a request: over the scheduler's Unix socket, the user the kernel names
 * ({@code SO_PEERCRED}); otherwise the user named by a token the scheduler signed
 * ({@code Authorization: Bearer koala1....}); or, on a call a standby scheduler of the grid passed on,
 * the user its voucher names ({@link Vouchers}, when relays are taken). Anyone else gets a 401 saying
 * how to identify.
 */
public final class Callers {
    static final String UNIX = "unix socket";
    static final String TOKEN = "token";

    private final Tokens tokens;
    private final Admins admins;
    private final InstantSource clock;
    /** Null: no call relayed by a standby is taken. */
    private final Vouchers vouchers;

    public Callers(Tokens tokens, Admins admins, InstantSource clock) {
        this(tokens, admins, clock, null);
    }

    private Callers(Tokens tokens, Admins admins, InstantSource clock, Vouchers vouchers) {
        this.tokens = tokens;
        this.admins = admins;
        this.clock = clock;
        this.vouchers = vouchers;
    }

    /** These callers, and those a standby vouches for under {@code vouchers} (a leader's: schedulers sharing a store). */
    public Callers withRelays(Vouchers vouchers) {
        return new Callers(tokens, admins, clock, vouchers);
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
        java.util.Optional<String> voucher = r.header(Vouchers.HEADER);
        if (voucher.isPresent()) {
            return vouched(r, voucher.get());
        }
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

    /** The caller a standby's voucher names, identified as the standby did it (through its socket, or a token). */
    private Caller vouched(Request r, String voucher) {
        if (vouchers == null) {
            throw new ApiException(401, "this scheduler takes no calls relayed by a standby (it shares no store)");
        }
        try {
            Vouchers.Vouched v = vouchers.verify(voucher, digest(r), clock.instant());
            return new Caller(v.who().user(), v.who().uid(), admins.isAdmin(v.who().user(), v.who().uid()),
                    v.via() + " at standby " + v.standby());
        } catch (TokenRefused e) {
            throw new ApiException(401, e.getMessage());
        } catch (RuntimeException e) { // a payload under our key that does not parse: a bug, but never a 500 to a caller
            throw new ApiException(401, "malformed voucher: " + e.getMessage());
        }
    }

    /** What a voucher for {@code r} is bound to ({@link Vouchers#digest}). */
    static String digest(Request r) {
        return Vouchers.digest(r.method(), r.path(), r.query(), r.header(SchedulerClient.ACT_FOR).map(String::strip)
                .orElse(null), r.body());
    }

    /** A voucher of this scheduler for {@code caller} of {@code r}, on {@code r} (a standby passing it on). */
    String vouch(Caller caller, Request r, String standby) {
        return vouchers.issue(new Identity(caller.user(), caller.uid()), caller.via(), digest(r), standby,
                clock.instant());
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
