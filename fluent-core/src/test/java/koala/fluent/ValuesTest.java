package koala.fluent;

import koala.provisioning.NaturalOrder;
import static koala.fluent.Fixtures.T0;
import static koala.fluent.Fixtures.rl;
import static koala.fluent.Fixtures.swc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesTest {

    @Test
    void anSwcOfNHasTwoToTheNMappersAReaderAndACounter() {
        assertThat(swc("s", 0, 60).components()).isEqualTo(3);
        assertThat(swc("s", 2, 60).components()).isEqualTo(6);
        assertThat(swc("s", 3, 60).components()).isEqualTo(10);
        assertThat(rl("r").components()).isEqualTo(1);
        assertThatThrownBy(() -> swc("s", 17, 60)).hasMessage("s: SWC n 17 is outside 0..16");
    }

    @Test
    void anApplicationNeedsAPositiveDurationAndAnRlALoadPeriod() {
        assertThatThrownBy(() -> Application.rl("r", Duration.ZERO, 90, Duration.ofSeconds(30)))
                .hasMessage("r: duration PT0S is not positive");
        assertThatThrownBy(() -> Application.rl("r", Duration.ofSeconds(60), 90, Duration.ZERO))
                .hasMessage("r: an RL has 1 component and a positive load period");
        assertThatThrownBy(() -> Application.swc("s", 1, Duration.ofSeconds(60), Double.NaN))
                .hasMessage("s: CPU load NaN is not a percentage");
    }

    @Test
    void aWorkerBecomesIdleWhenItsLastApplicationStops() {
        FluentWorker w = FluentWorker.idle("w1", 8, T0).start("a", 3).start("b", 2);

        assertThat(w.freeSlots()).isEqualTo(3);
        assertThat(w.isPartiallyBusy()).isTrue();
        assertThat(w.stop("a", Fixtures.at(10)).idleSince()).isNull();
        assertThat(w.stop("a", Fixtures.at(10)).stop("b", Fixtures.at(20)).idleSince()).isEqualTo(Fixtures.at(20));
        assertThatThrownBy(() -> w.start("c", 4)).hasMessage("w1: 9 slots in use of 8");
    }

    @Test
    void aJobNamesEachApplicationOnce() {
        assertThatThrownBy(() -> new FluentJob("j", List.of(rl("r"), rl("r")), T0)).hasMessage("j: application r appears twice");
    }

    @Test
    void idsAreOrderedWithTheirNumbersAsNumbers() {
        assertThat(List.of("w10", "w2", "w1", "v3").stream().sorted(NaturalOrder.IDS).toList())
                .containsExactly("v3", "w1", "w2", "w10");
    }
}
