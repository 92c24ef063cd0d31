package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
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

    @Test
    void aRelayedUrlKeepsItsPathAndQueryOnTheRelaysHostAndPort() {
        CallBacks.Callback back = new CallBacks.Callback(45002, "fs2-head", 47401);

        assertThat(CallBacks.relayed("http://koala-host:41001/frameworks/3/grow?x=1", back))
                .isEqualTo("http://fs2-head:47401/frameworks/3/grow?x=1");
        assertThat(back.authority()).isEqualTo("fs2-head:47401");
    }
}
