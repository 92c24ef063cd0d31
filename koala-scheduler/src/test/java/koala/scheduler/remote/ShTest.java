package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShTest {
    @Test
    void quotingKeepsAnyValueOneWord() {
        assertThat(Sh.quote("it's")).isEqualTo("'it'\\''s'");
    }

    @Test
    void aCommandIsNamedByItsFirstLineCutAtSixtyCharacters() {
        assertThat(Sh.brief("kill -0 42")).isEqualTo("`kill -0 42`");
        assertThat(Sh.brief("cd / && mkdir -p x\nnohup setsid java")).isEqualTo("`cd / && mkdir -p x ...`");
        assertThat(Sh.brief("x".repeat(70))).isEqualTo("`" + "x".repeat(60) + " ...`");
    }
}
