package koala.sge;

import java.util.ArrayList;
import java.util.List;
import koala.api.site.HostInfo;
import org.w3c.dom.Element;

/** Reads {@code qhost -xml}: the execution hosts, leaving out SGE's pseudo-host {@code global}. */
public final class QhostXml {
    private QhostXml() {
    }

    public static List<HostInfo> parse(String xml) {
        Element root = SgeXml.parse(xml, "qhost").getDocumentElement();
        List<HostInfo> hosts = new ArrayList<>();
        for (Element host : SgeXml.children(root, "host")) {
            String name = host.getAttribute("name");
            if (!"global".equals(name)) {
                hosts.add(new HostInfo(name, value(host, "arch_string"), integer(value(host, "num_proc")),
                        decimal(value(host, "load_avg")), value(host, "mem_total"), value(host, "mem_used")));
            }
        }
        return hosts;
    }

    private static String value(Element host, String name) {
        for (Element v : SgeXml.children(host, "hostvalue")) {
            if (name.equals(v.getAttribute("name"))) {
                String text = v.getTextContent().trim();
                return text.equals("-") ? null : text;
            }
        }
        return null;
    }

    private static Integer integer(String s) {
        return s == null ? null : Integer.valueOf(s);
    }

    private static Double decimal(String s) {
        return s == null ? null : Double.valueOf(s);
    }
}
