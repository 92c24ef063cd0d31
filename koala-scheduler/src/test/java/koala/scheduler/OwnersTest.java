package koala.scheduler;

import koala.scheduler.api.Caller;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import koala.common.failure.Forbidden;
import org.junit.jupiter.api.Test;

/** Who may own a job: KOALA runs each job as its owner, so never root or a system account. */
class OwnersTest {
    @Test
    void rootAndSystemAccountsOwnNoJob() {
        assertThatThrownBy(() -> Owners.mayOwn(new Caller("root", 0, true, "unix socket")))
                .isInstanceOf(Forbidden.class).hasMessageStartingWith("root (uid 0) may not own a job");
        assertThatThrownBy(() -> Owners.mayOwn(new Caller("www-data", 33, false, "token")))
                .isInstanceOf(Forbidden.class).hasMessageContaining("(uid below 1000)");
        assertThatThrownBy(() -> Owners.mayOwn(new Caller("sgeadmin", 999, false, "unix socket")))
                .isInstanceOf(Forbidden.class);
    }

    @Test
    void anOrdinaryUserOwnsJobsAndSoDoesAUserAnAdminActsFor() {
        assertThatCode(() -> Owners.mayOwn(new Caller("alice", 1000, false, "unix socket"))).doesNotThrowAnyException();
        assertThatCode(() -> Owners.mayOwn(new Caller("bob", 1003, false, "unix socket for admin root")))
                .doesNotThrowAnyException();
    }
}
