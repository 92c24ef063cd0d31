package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which URLs a remote site's nodes need relayed, and how they read once relayed. */
class CallBacksTest {
    private final CallBacks callBacks = new CallBacks(SshErrorsTest.SITE, "koala-host", 7400);

    @Test
    void urlsOnLoopbackOrOnTheAdvertisedKoalaHostAreRelayed() {
        assertThat(callBacks.endpoint(URI.create("http://127.0.0.1:41000/grow")))
                .contains(new CallBacks.Endpoint("127.0.0.1", 41000));
        assertThat(callBacks.endpoint(URI.create("http://localhost:41000/"))).contains(new CallBacks.Endpoint("127.0.0.1", 41000));
        assertThat(callBacks.endpoint(URI.create("http://koala-host:41001/rpc")))
                .contains(new CallBacks.Endpoint("koala-host", 41001));
        assertThat(callBacks.endpoint(URI.create("http://KOALA-HOST:41001/rpc")))
                .contains(new CallBacks.Endpoint("koala-host", 41001));
        assertThat(callBacks.scheduler()).isEqualTo(new CallBacks.Endpoint("koala-host", 7400));
    }

    @Test
    void otherHostsAndUrlsWithoutAPortAreLeftAsTheyAre() {
        assertThat(callBacks.endpoint(URI.create("http://fs2-n1:8080/"))).isEmpty();
        assertThat(callBacks.endpoint(URI.create("http://koala-host/"))).isEmpty();
    }

    @Test
    void theAdvertisedAddressMayBeAnIpAddress() {
        CallBacks byAddress = new CallBacks(SshErrorsTest.SITE, "198.18.0.1", 7400);

        assertThat(byAddress.endpoint(URI.create("http://198.18.0.1:41001/"))).contains(new CallBacks.Endpoint("198.18.0.1", 41001));
        assertThat(byAddress.endpoint(URI.create("http://198.18.0.2:41001/"))).isEmpty();
    }

    /**
     * The standby's scheduler leads from koala-b (198.18.0.2) while the runner its user started on the KOALA host
     * serves at 198.18.0.1: the hosts of {@code scheduler.addresses} are relayed too (the instance's master on fs2
     * never reported in without it), a host of no scheduler's still is not.
     */
    @Test
    void aRunnerOnAnotherSchedulersHostIsRelayedToo() {
        CallBacks onB = new CallBacks(SshErrorsTest.SITE, "koala-b", java.util.Set.of("198.18.0.2", "198.18.0.1"), 7400);

        assertThat(onB.endpoint(URI.create("http://198.18.0.1:45329/"))).contains(new CallBacks.Endpoint("198.18.0.1", 45329));
        assertThat(onB.endpoint(URI.create("http://koala-b:41001/"))).contains(new CallBacks.Endpoint("koala-b", 41001));
        assertThat(onB.endpoint(URI.create("http://198.18.0.3:41001/"))).isEmpty();
        assertThat(onB.endpoint(URI.create("http://fs2-n1:8080/"))).isEmpty();
    }

    @Test
    void aRelayedUrlKeepsItsPathAndQueryOnTheRelaysHostAndPort() {
        CallBacks.Callback back = new CallBacks.Callback(45002, "fs2-head", 47401);

        assertThat(CallBacks.relayed("http://koala-host:41001/frameworks/3/grow?x=1", back))
                .isEqualTo("http://fs2-head:47401/frameworks/3/grow?x=1");
        assertThat(back.authority()).isEqualTo("fs2-head:47401");
    }

    /**
     * A scheduler connecting (started again, or a standby here that took over) makes again the runners'
     * call-backs a scheduler of this KOALA host recorded on the head node, on their ports, and those it made
     * itself; not one it forgot since (its instance ended while the link was down), not the scheduler's own
     * (kept apart), and not another host's, which is written back as it was.
     */
    @Test
    void aConnectingSchedulerMakesAgainThisHostsRecordedRunnersCallBacksAndKeepsOtherHostsLines() {
        CallBacks.Endpoint a = new CallBacks.Endpoint("koala-host", 41234);
        CallBacks.Endpoint ended = new CallBacks.Endpoint("koala-host", 41250);
        CallBacks.Endpoint madeHere = new CallBacks.Endpoint("koala-host", 41300);
        callBacks.made(ended, new CallBacks.Callback(45005, "fs2-head", 47405));
        callBacks.made(madeHere, new CallBacks.Callback(45010, "fs2-head", 47410));
        assertThat(callBacks.forget(ended)).contains(new CallBacks.Callback(45005, "fs2-head", 47405));
        List<RunnerCallback> recorded = RunnerCallback.parseAll("""
                127.0.0.1:7501 45003 47402 koala-b
                koala-host:7400 45001 47400 koala-host
                koala-host:41234 45002 47401 koala-host
                koala-host:41250 45005 47405 koala-host
                """);

        assertThat(callBacks.read(recorded)).extracting(RunnerCallback::line).containsExactly(
                "koala-host:41234 45002 47401 koala-host", "koala-host:41300 45010 47410 koala-host");

        callBacks.made(a, new CallBacks.Callback(45002, "fs2-head", 47401)); // made again on its ports
        assertThat(RunnerCallback.format(callBacks.records())).isEqualTo("""
                127.0.0.1:7501 45003 47402 koala-b
                koala-host:41234 45002 47401 koala-host
                koala-host:41300 45010 47410 koala-host
                """);
    }

    /** A runner's call-back known here keeps the ports this process has, over what the head node recorded. */
    @Test
    void aCallBackKnownHereKeepsItsPortsOverTheRecordedOnes() {
        CallBacks.Endpoint a = new CallBacks.Endpoint("koala-host", 41234);
        callBacks.made(a, new CallBacks.Callback(45022, "fs2-head", 47401));

        assertThat(callBacks.read(List.of(new RunnerCallback(a, 45002, 47401, "koala-host"))))
                .containsExactly(new RunnerCallback(a, 45022, 47401, "koala-host"));
        assertThat(callBacks.known(a)).contains(new CallBacks.Callback(45022, "fs2-head", 47401));
    }

    /**
     * Two runners' call-backs are made again from the head node's record (41234 and 41250); the scheduler, its jobs
     * reloaded, holds live only the instance of 41234 (41250's ended while no scheduler was connected). 41250's is
     * forgotten and handed back to be closed; one made in this process since (41300, for a node's task) is kept, and
     * so is one made again that a node asked for before the check (41260: its instance registered after the live
     * runners were read); a record read after that keeps only those lines.
     */
    @Test
    void callBacksMadeAgainForRunnersNoLiveInstanceHasAreForgottenOnceTheJobsAreReloaded() {
        CallBacks.Endpoint live = new CallBacks.Endpoint("koala-host", 41234);
        CallBacks.Endpoint ended = new CallBacks.Endpoint("koala-host", 41250);
        CallBacks.Endpoint madeSince = new CallBacks.Endpoint("koala-host", 41300);
        CallBacks.Endpoint askedSince = new CallBacks.Endpoint("koala-host", 41260);
        List<RunnerCallback> recorded = RunnerCallback.parseAll("""
                koala-host:41234 45002 47401 koala-host
                koala-host:41250 45005 47405 koala-host
                koala-host:41260 45006 47406 koala-host
                """);
        for (RunnerCallback r : callBacks.read(recorded)) { // as restoreRunners makes them again
            callBacks.remade(r.to(), new CallBacks.Callback(r.forward(), "fs2-head", r.relayPort()));
        }
        callBacks.made(madeSince, new CallBacks.Callback(45010, "fs2-head", 47410));
        assertThat(callBacks.relayFor(null, null, null, askedSince)) // known: no SSH work
                .isEqualTo(new CallBacks.Callback(45006, "fs2-head", 47406));

        assertThat(callBacks.keepOnly(java.util.Set.of("http://koala-host:41234", "http://koala-host:41300")))
                .containsExactly(new CallBacks.Callback(45005, "fs2-head", 47405));
        assertThat(callBacks.known(ended)).isEmpty();
        assertThat(callBacks.known(live)).isPresent();
        assertThat(callBacks.known(madeSince)).isPresent();
        assertThat(callBacks.known(askedSince)).isPresent();
        assertThat(callBacks.read(recorded)).extracting(RunnerCallback::line).containsExactly(
                "koala-host:41234 45002 47401 koala-host", "koala-host:41260 45006 47406 koala-host",
                "koala-host:41300 45010 47410 koala-host");
    }
}
