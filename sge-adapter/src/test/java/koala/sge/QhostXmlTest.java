package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import koala.api.site.HostInfo;
import org.junit.jupiter.api.Test;

class QhostXmlTest {
    @Test
    void readsTheExecutionHostAndSkipsTheGlobalPseudoHost() throws IOException {
        assertThat(QhostXml.parse(QstatXmlTest.capture("qhost.xml")))
                .containsExactly(new HostInfo("vm", "lx-amd64", 2, 0.02, "23.5G", "124.6M"));
    }

    @Test
    void aHostWhoseExecdNeverReportedHasNoValues() {
        String xml = "<qhost><host name='n1'><hostvalue name='arch_string'>-</hostvalue>"
                + "<hostvalue name='num_proc'>-</hostvalue><hostvalue name='load_avg'>-</hostvalue></host></qhost>";
        assertThat(QhostXml.parse(xml)).containsExactly(new HostInfo("n1", null, null, null, null, null));
    }
}
