package koala.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import sun.misc.SignalHandler;

/** Whether SIGHUP reloads, from what the JVM answered when the scheduler asked for it. */
class HangupReloadTest {
    /** Under nohup the JVM installs nothing and answers SIG_IGN: no reload, and the warning says why and what instead. */
    @Test
    void aHangupIgnoredAtTheStartNeverReloadsAndTheWarningSaysWhatToDoInstead() {
        HangupReload found = HangupReload.after(SignalHandler.SIG_IGN);

        assertThat(found.reloads()).isFalse();
        assertThat(found.warning()).startsWith("SIGHUP will not reload the configuration (kill -HUP and systemctl "
                + "reload do nothing): SIGHUP was ignored when the scheduler started (under nohup")
                .contains("restart the scheduler (systemctl restart koala-scheduler");
    }

    /** The JVM's default (it would end the process) or another handler before ours: ours is in place. */
    @Test
    void anyOtherHandlerBeforeOursMeansItReloads() {
        assertThat(HangupReload.after(SignalHandler.SIG_DFL)).isEqualTo(HangupReload.CAUGHT);
        assertThat(HangupReload.after(signal -> { })).isEqualTo(HangupReload.CAUGHT);
        assertThat(HangupReload.CAUGHT.warning()).isEmpty();
    }

    /** The JVM keeping the signal for itself (-Xrs) is said with its reason. */
    @Test
    void aSignalTheJvmKeepsIsNamedWithItsReason() {
        HangupReload found = HangupReload.refused("Signal already used by VM or OS: SIGHUP");

        assertThat(found.reloads()).isFalse();
        assertThat(found.warning()).contains("the JVM did not let the scheduler catch SIGHUP (Signal already used by VM "
                + "or OS: SIGHUP)");
    }
}
