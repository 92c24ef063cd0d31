package koala.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * At 10:00 the standby head2:4711 passes alice's {@code DELETE /jobs/7}, which the kernel named her on, to
 * the leader: the voucher opens that request until 10:05, under the grid's shared token key only.
 */
class VouchersTest {
    private static final Instant TEN = Instant.parse("2026-12-06T10:00:00Z");
    private static final Identity ALICE = new Identity("alice", 1001);
    private static final String CANCEL = Vouchers.digest("DELETE", "/jobs/7", Map.of(), null, new byte[0]);

    private final Vouchers vouchers = new Vouchers(() -> new byte[32]);

    @Test
    void aVoucherNamesTheCallerOnItsOwnRequestForFiveMinutes() throws Exception {
        String voucher = vouchers.issue(ALICE, "unix socket", CANCEL, "head2:4711", TEN);
        assertThat(voucher).startsWith("relay1.");
        assertThat(vouchers.verify(voucher, CANCEL, TEN.plusSeconds(299)))
                .isEqualTo(new Vouchers.Vouched(ALICE, "unix socket", "head2:4711"));
        assertThatThrownBy(() -> vouchers.verify(voucher, CANCEL, TEN.plusSeconds(300))).isInstanceOf(TokenRefused.class)
                .hasMessage("the voucher of standby head2:4711 for alice expired at 2026-12-06T10:05:00Z (are the"
                        + " schedulers' clocks 5 minutes apart?)");
    }

    @Test
    void aVoucherOpensNoOtherRequest() {
        String voucher = vouchers.issue(ALICE, "unix socket", CANCEL, "head2:4711", TEN);
        for (String other : new String[] {
                Vouchers.digest("DELETE", "/jobs/8", Map.of(), null, new byte[0]),
                Vouchers.digest("GET", "/jobs/7", Map.of(), null, new byte[0]),
                Vouchers.digest("DELETE", "/jobs/7", Map.of("held", "true"), null, new byte[0]),
                Vouchers.digest("DELETE", "/jobs/7", Map.of(), "bob", new byte[0]),
                Vouchers.digest("DELETE", "/jobs/7", Map.of(), null, "{}".getBytes(StandardCharsets.UTF_8))}) {
            assertThatThrownBy(() -> vouchers.verify(voucher, other, TEN)).isInstanceOf(TokenRefused.class)
                    .hasMessage("the voucher of standby head2:4711 is for another request");
        }
    }

    @Test
    void theQueryCountsInNameOrder() {
        assertThat(Vouchers.digest("GET", "/accounting", Map.of("user", "bob", "limit", "5"), null, new byte[0]))
                .isEqualTo(Vouchers.digest("GET", "/accounting", new java.util.TreeMap<>(Map.of("limit", "5", "user", "bob")),
                        null, new byte[0]));
    }

    @Test
    void aVoucherUnderAnotherKeyOrChangedIsRefused() {
        String voucher = vouchers.issue(ALICE, "unix socket", CANCEL, "head2:4711", TEN);
        byte[] other = new byte[32];
        other[0] = 1;
        assertThatThrownBy(() -> new Vouchers(() -> other).verify(voucher, CANCEL, TEN)).isInstanceOf(TokenRefused.class)
                .hasMessageStartingWith("a voucher not signed by this scheduler's token key");
        String asRoot = "relay1." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("root:0:dW5peCBzb2NrZXQ:9999999999:" + CANCEL + ":aGVhZDI").getBytes(StandardCharsets.UTF_8))
                + voucher.substring(voucher.lastIndexOf('.'));
        assertThatThrownBy(() -> vouchers.verify(asRoot, CANCEL, TEN)).isInstanceOf(TokenRefused.class)
                .hasMessageStartingWith("a voucher not signed");
        assertThatThrownBy(() -> vouchers.verify("koala1.abc.def", CANCEL, TEN)).isInstanceOf(TokenRefused.class)
                .hasMessage("not a standby's voucher (they start with 'relay1.')");
    }
}
