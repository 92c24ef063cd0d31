package koala.api.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class AgentSecretTest {
    @Test
    void aSecretIsThirtyTwoRandomBytesInBase64UrlAndNeverShownInLogs() {
        AgentSecret a = AgentSecret.random();
        AgentSecret b = AgentSecret.random();

        assertThat(a.value()).matches("[A-Za-z0-9_-]{43}");
        assertThat(Base64.getUrlDecoder().decode(a.value())).hasSize(32);
        assertThat(a).isNotEqualTo(b);
        assertThat(AgentSecret.of(a.value())).isEqualTo(a);
        assertThat(a.toString()).doesNotContain(a.value());
    }

    @Test
    void onlyTheBearerHeaderWithTheSecretIsAdmitted() {
        AgentSecret secret = AgentSecret.random();
        String other = AgentSecret.random().value();

        assertThat(secret.admits("Bearer " + secret.value())).isTrue();
        assertThat(secret.admits("bearer " + secret.value())).as("the scheme is case-insensitive").isTrue();
        assertThat(secret.admits(secret.authorization())).isTrue();
        assertThat(secret.admits(null)).isFalse();
        assertThat(secret.admits("")).isFalse();
        assertThat(secret.admits("Bearer ")).isFalse();
        assertThat(secret.admits("Bearer " + other)).isFalse();
        assertThat(secret.admits("Basic " + secret.value())).isFalse();
        assertThat(secret.admits(secret.value())).as("no scheme").isFalse();
        assertThat(secret.admits("Bearer " + secret.value().substring(1))).isFalse();
    }

    @Test
    void somethingElseIsNotASecret() {
        assertThatThrownBy(() -> AgentSecret.of("secret")).hasMessage("not an agent secret (32 bytes, base64url)");
        assertThatThrownBy(() -> AgentSecret.of(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AgentSecret.of("a+b/" + "A".repeat(39))).isInstanceOf(IllegalArgumentException.class);
    }
}
