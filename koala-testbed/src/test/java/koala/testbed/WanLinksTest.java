package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WanLinksTest {
    private static final TestbedPlan DEFAULT = TestbedPlan.of(null, List.of(), 1, null);
    private static final WanLinks LINKS = new WanLinks(DEFAULT);

    @Test
    void aLocalCellIsReachedAtItsHeadNodeAndItsNodesNetworkARemoteOneAtItsHeadNodeOnly() {
        assertThat(WanLinks.prefixes(DEFAULT.cell("fs0"))).containsExactly("198.18.0.10/32", "198.18.1.0/24");
        assertThat(WanLinks.prefixes(DEFAULT.cell("fs1"))).containsExactly("198.18.0.11/32", "198.18.2.0/24");
        assertThat(WanLinks.prefixes(DEFAULT.cell("fs2"))).containsExactly("198.18.0.12/32");
    }

    @Test
    void everyHostOnTheGridsNetworkRoutesTheOtherCellsIntoTheDelayAndFs2sPrivateNodesNothing() {
        // 3 head nodes + 16 nodes of fs0 + 8 of fs1; fs2's 8 nodes have no address on the grid's network
        List<WanLinks.HostRoutes> hosts = LINKS.hosts();
        assertThat(hosts).hasSize(3 + 16 + 8);
        assertThat(hosts).extracting(WanLinks.HostRoutes::host).doesNotContain("fs2-n1").contains("fs2-head");
        assertThat(hosts.get(0)).isEqualTo(new WanLinks.HostRoutes("fs0-head", "fs0", "198.18.0.10",
                List.of("198.18.0.11/32", "198.18.2.0/24", "198.18.0.12/32")));
        assertThat(hosts.get(2)).isEqualTo(new WanLinks.HostRoutes("fs2-head", "fs2", "198.18.0.12",
                List.of("198.18.0.10/32", "198.18.1.0/24", "198.18.0.11/32", "198.18.2.0/24")));
        assertThat(hosts).filteredOn(h -> h.host().equals("fs1-n8")).containsExactly(new WanLinks.HostRoutes("fs1-n8",
                "fs1", "198.18.2.18", List.of("198.18.0.10/32", "198.18.1.0/24", "198.18.0.12/32")));
    }

    /** koala-b, like the KOALA host, belongs to no cell: it routes nothing into the delay, and no cell routes it there. */
    @Test
    void theStandbyHostHasNoWideAreaLink() {
        WanLinks standby = new WanLinks(DEFAULT.withStandbyHost(true));
        assertThat(standby.hosts()).isEqualTo(LINKS.hosts());
        assertThat(standby.hosts()).flatExtracting(WanLinks.HostRoutes::prefixes).noneMatch(p -> p.startsWith("198.18.0.2/")
                || p.equals("198.18.0.0/24"));
        assertThat(standby.probes()).isEqualTo(LINKS.probes());
    }

    @Test
    void oneCellHasNoWideAreaLink() {
        assertThat(new WanLinks(TestbedPlan.of(1, List.of(), 1, Set.of())).hosts()).isEmpty();
    }

    @Test
    void theSetupScriptMakesTheDeviceOnceRoutesTheOtherCellsWithTheHostsAddressAndAddsTheRuleOnce() {
        WanLinks.HostRoutes fs0n1 = LINKS.hosts().stream().filter(h -> h.host().equals("fs0-n1")).findFirst().orElseThrow();
        assertThat(WanLinks.setupScript(fs0n1)).isEqualTo("""
                if ! ip link show kwan >/dev/null 2>&1; then ip tuntap add dev kwan mode tun; echo made; fi
                ip link set kwan mtu "$(cat /sys/class/net/eth0/mtu)" up
                echo 0 > /proc/sys/net/ipv4/conf/all/rp_filter
                echo 0 > /proc/sys/net/ipv4/conf/eth0/rp_filter
                ip route replace 198.18.0.11/32 dev kwan src 198.18.1.11
                ip route replace 198.18.2.0/24 dev kwan src 198.18.1.11
                ip route replace 198.18.0.12/32 dev kwan src 198.18.1.11
                for r in $(ip -o route show dev kwan | cut -d' ' -f1); do case $r in 198.18.0.11|198.18.2.0/24|198.18.0.12) ;; \
                *) ip route del "$r" dev kwan; echo "dropped $r";; esac; done
                ip route replace 198.18.0.0/16 dev eth0 table 75
                if [ -z "$(ip rule show fwmark 0x4b lookup 75)" ]; then ip rule add fwmark 0x4b lookup 75 priority 1000; \
                echo rule; fi
                """);
    }

    @Test
    void theRemoveScriptTakesTheDeviceWithItsRoutesEveryRuleAndTheTable() {
        assertThat(WanLinks.removeScript()).isEqualTo("""
                if ip link show kwan >/dev/null 2>&1; then ip link del kwan; echo removed; fi
                while ip rule del fwmark 0x4b lookup 75 2>/dev/null; do :; done
                ip route flush table 75 2>/dev/null || true
                """);
    }

    @Test
    void oneProcessServesEveryHostWithTheDelayInMicroseconds() {
        List<WanLinks.HostRoutes> two = LINKS.hosts().subList(0, 2);
        assertThat(WanLinks.command(Path.of("/usr/bin/python3"), Path.of("/run/w/wan-delay.py"), Path.of("/run/w/pid"), 5, two))
                .containsExactly("/usr/bin/python3", "/run/w/wan-delay.py", "--delay-us", "5000", "--mark", "0x4b",
                        "--device", "kwan", "--pid-file", "/run/w/pid", "fs0-head", "fs1-head");
    }

    @Test
    void roundTripsAreMeasuredInsideEachCellAndBetweenEveryTwoFromANodeOrARemoteCellsHeadNode() {
        assertThat(LINKS.probes()).containsExactly(
                new WanLinks.Probe("fs0", "fs0", "fs0-n1", "fs0-n2", "198.18.1.12"),
                new WanLinks.Probe("fs0", "fs1", "fs0-n1", "fs1-n1", "198.18.2.11"),
                new WanLinks.Probe("fs0", "fs2", "fs0-n1", "fs2-head", "198.18.0.12"),
                new WanLinks.Probe("fs1", "fs1", "fs1-n1", "fs1-n2", "198.18.2.12"),
                new WanLinks.Probe("fs1", "fs2", "fs1-n1", "fs2-head", "198.18.0.12"),
                new WanLinks.Probe("fs2", "fs2", "fs2-n1", "fs2-n2", "198.19.2.12"));
        assertThat(LINKS.probes()).extracting(WanLinks.Probe::label)
                .containsExactly("inside fs0", "fs0 - fs1", "fs0 - fs2", "inside fs1", "fs1 - fs2", "inside fs2");
    }

    @Test
    void aCellOfOneNodeIsMeasuredToItsHeadNodeAtTheAddressItsNodeReaches() {
        WanLinks small = new WanLinks(TestbedPlan.of(null, List.of(1, 1), 1, Set.of("fs1")));
        assertThat(small.probes()).containsExactly(
                new WanLinks.Probe("fs0", "fs0", "fs0-n1", "fs0-head", "198.18.0.10"),
                new WanLinks.Probe("fs0", "fs1", "fs0-n1", "fs1-head", "198.18.0.11"),
                new WanLinks.Probe("fs1", "fs1", "fs1-n1", "fs1-head", "198.19.1.1"));
    }
}
