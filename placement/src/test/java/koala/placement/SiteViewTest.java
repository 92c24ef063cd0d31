package koala.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A site seen host by host: its counts, and its hosts' free cores by name, made from hosts in any order. */
class SiteViewTest {
    private static HostView host(String name, int total, int free) {
        return new HostView(name, new Resources(total, 0, 0), new Resources(free, 0, 0));
    }

    /**
     * fs0-n2 (8 cores, 3 free), fs0-n10 (4, none free) and fs0-n1 (8, 1 free), given in that order: the site has 20
     * cores, 4 idle; its hosts and their free cores come by name (fs0-n1, fs0-n10, fs0-n2), a host with none free
     * too, and read as the same map as one built by hand.
     */
    @Test
    void aSitesHostsAreKeptByNameWithTheirFreeCores() {
        SiteView fs0 = new SiteView("fs0", List.of(host("fs0-n2", 8, 3), host("fs0-n10", 4, 0), host("fs0-n1", 8, 1)));

        assertThat(fs0.totalNodes()).isEqualTo(20);
        assertThat(fs0.idleNodes()).isEqualTo(4);
        assertThat(fs0.hosts()).extracting(HostView::host).containsExactly("fs0-n1", "fs0-n10", "fs0-n2");
        assertThat(fs0.idleHosts().keySet()).containsExactly("fs0-n1", "fs0-n10", "fs0-n2");
        assertThat(fs0.idleHosts()).isEqualTo(new TreeMap<>(Map.of("fs0-n1", 1, "fs0-n10", 0, "fs0-n2", 3)));
        assertThat(fs0.idleHosts().get("fs0-n2")).isEqualTo(3);
        assertThat(fs0.idleHosts().get("fs0-n3")).isNull();
        assertThat(fs0.idleHosts().containsKey("fs0-n10")).isTrue();
        assertThatThrownBy(() -> fs0.idleHosts().put("fs0-n3", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    /** Hosts given in order, one name twice: refused, as when they come in any other order. */
    @Test
    void aHostTwiceIsRefusedWhateverTheOrder() {
        assertThatThrownBy(() -> new SiteView("fs0", List.of(host("fs0-n1", 8, 1), host("fs0-n1", 8, 2))))
                .hasMessage("host fs0-n1 appears twice in the view of site fs0");
        assertThatThrownBy(() -> new SiteView("fs0", List.of(host("fs0-n2", 8, 1), host("fs0-n1", 8, 1),
                host("fs0-n2", 8, 2)))).hasMessage("host fs0-n2 appears twice in the view of site fs0");
    }
}
