package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcHostsTest {
    @Test
    void upAddsOneMarkedBlockAndDownRemovesExactlyIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hosts");
        String original = "127.0.0.1 localhost\n127.0.0.1 vm\n";
        Files.writeString(file, original);
        EtcHosts hosts = new EtcHosts(file);

        assertThat(hosts.set(List.of("198.18.0.1 koala-host", "198.18.0.10 fs0-head"))).isTrue();
        assertThat(hosts.set(List.of("198.18.0.1 koala-host", "198.18.0.10 fs0-head"))).isFalse();
        assertThat(Files.readString(file)).isEqualTo(original + EtcHosts.BEGIN + "\n198.18.0.1 koala-host\n"
                + "198.18.0.10 fs0-head\n" + EtcHosts.END + "\n");

        Files.writeString(file, Files.readString(file) + "10.1.1.1 added-later\n");
        assertThat(hosts.set(List.of("198.18.0.1 koala-host"))).isTrue();
        assertThat(Files.readString(file)).isEqualTo(original + "10.1.1.1 added-later\n" + EtcHosts.BEGIN
                + "\n198.18.0.1 koala-host\n" + EtcHosts.END + "\n");

        assertThat(hosts.clear()).isTrue();
        assertThat(Files.readString(file)).isEqualTo(original + "10.1.1.1 added-later\n");
        assertThat(hosts.clear()).isFalse();
    }

    @Test
    void aHostsMountNamespaceHidesWhatANodeMustNotSee() {
        String script = Hosts.setup("fs2-n1", new Hosts.View(Path.of("/run/koala-testbed/views/fs2.hosts"),
                List.of(Path.of("/var/lib/koala")), List.<Path[]>of(new Path[] {Path.of("/srv/koala-testbed/fs2/home"),
                        Path.of("/home")})));
        assertThat(script).isEqualTo("""
                hostname fs2-n1
                mount --bind /run/koala-testbed/views/fs2.hosts /etc/hosts
                mount -t tmpfs -o size=512m,mode=1777 tmpfs /tmp
                mount --bind /srv/koala-testbed/fs2/home /home
                if [ -d /var/lib/koala ]; then mount -t tmpfs -o size=1m,mode=755 tmpfs /var/lib/koala; fi""");
    }

    /** fs3-head at 198.18.0.13 has the same hardware address each time it is made: its neighbours' caches stay right. */
    @Test
    void aHostsInterfaceHasTheHardwareAddressOfItsAddress() {
        assertThat(Hosts.macOf("198.18.0.13/16")).isEqualTo("02:4b:c6:12:00:0d");
        assertThat(Hosts.macOf("198.19.3.1/24")).isEqualTo("02:4b:c6:13:03:01");
    }
}
