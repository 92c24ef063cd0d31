package koala.sge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.api.site.HostResources.MemorySource;
import org.w3c.dom.Element;

/**
 * Reads {@code qhost -xml}: the execution hosts, leaving out SGE's pseudo-host {@code global}.
 * With {@code -F -q} (what the agent runs) each host also gets its {@link HostResources}: SGE
 * prints each resource with the source of its value ({@code dominance}: {@code hl} a load value,
 * {@code hc} what is left of a host consumable, {@code hf} a fixed host value, {@code g*}/{@code q*}
 * the same from the global host or a queue), and each queue instance with its slots.
 */
public final class QhostXml {
    private QhostXml() {
    }

    public static List<HostInfo> parse(String xml) {
        return parse(xml, Map.of());
    }

    /**
     * @param held what the running jobs on each host hold of the consumables ({@link QstatXml}):
     *             {@code qhost -F} prints only what is left of a consumable, so its capacity is
     *             what is left plus what is held
     */
    public static List<HostInfo> parse(String xml, Map<String, Held> held) {
        Element root = SgeXml.parse(xml, "qhost").getDocumentElement();
        List<HostInfo> hosts = new ArrayList<>();
        for (Element host : SgeXml.children(root, "host")) {
            String name = host.getAttribute("name");
            if (!"global".equals(name)) {
                hosts.add(new HostInfo(name, value(host, "arch_string"), integer(value(host, "num_proc")),
                        decimal(value(host, "load_avg")), value(host, "mem_total"), value(host, "mem_used"),
                        resources(host, held.getOrDefault(name, Held.NONE))));
            }
        }
        return hosts;
    }

    /** What running jobs hold on one host of the consumables KOALA reads. */
    public record Held(long memoryMib, int gpus) {
        public static final Held NONE = new Held(0, 0);

        Held plus(Held other) {
            return new Held(memoryMib + other.memoryMib, gpus + other.gpus);
        }
    }

    /** Null when qhost ran without {@code -q}: a host with no queue lines tells nothing of its slots. */
    private static HostResources resources(Element host, Held held) {
        List<Element> queues = SgeXml.children(host, "queue");
        if (queues.isEmpty() && SgeXml.children(host, "resourcevalue").isEmpty()) {
            return null;
        }
        int slots = 0;
        int used = 0;
        int free = 0;
        for (Element q : queues) {
            int total = integer(queueValue(q, "slots"), 0);
            int taken = integer(queueValue(q, "slots_used"), 0);
            int reserved = integer(queueValue(q, "slots_resv"), 0);
            slots += total;
            used += taken;
            if (QstatXml.usable(queueValue(q, "state_string") == null ? "" : queueValue(q, "state_string"))) {
                free += Math.max(0, total - taken - reserved);
            }
        }
        Resource hostSlots = resource(host, "slots");
        if (hostSlots != null && hostSlots.consumable()) {
            // the host's own slot limit (complex_values slots=N) binds every queue on it together
            int left = (int) Double.parseDouble(hostSlots.value());
            slots = Math.min(slots, left + used);
            free = Math.min(free, left);
        }
        Resource vmem = resource(host, HostResources.MEMORY_COMPLEX);
        Long memory;
        Long memoryFree;
        MemorySource source;
        if (vmem != null && vmem.consumable() && SgeMemory.mib(vmem.value()) != null) {
            memoryFree = SgeMemory.mib(vmem.value());
            memory = memoryFree + held.memoryMib();
            source = MemorySource.CONSUMABLE;
        } else {
            memory = mib(resource(host, "mem_total"));
            memoryFree = mib(resource(host, "mem_free"));
            source = memory == null ? MemorySource.UNKNOWN : MemorySource.LOAD;
        }
        Resource gpu = resource(host, HostResources.GPU_COMPLEX);
        int gpusFree = gpu != null && gpu.consumable() ? (int) Double.parseDouble(gpu.value()) : 0;
        int gpus = gpu != null && gpu.consumable() ? gpusFree + held.gpus() : 0;
        return new HostResources(slots, free, memory, memoryFree, source, gpus, gpusFree);
    }

    /** One {@code resourcevalue}: its value and where SGE took it from. */
    private record Resource(String value, String dominance) {
        /** What is left of a consumable, of the host or of the whole cell ({@code gc}) */
        boolean consumable() {
            return dominance.length() == 2 && dominance.charAt(1) == 'c';
        }
    }

    private static Resource resource(Element host, String name) {
        for (Element v : SgeXml.children(host, "resourcevalue")) {
            if (name.equals(v.getAttribute("name"))) {
                return new Resource(v.getTextContent().trim(), v.getAttribute("dominance"));
            }
        }
        return null;
    }

    private static Long mib(Resource r) {
        return r == null ? null : SgeMemory.mib(r.value());
    }

    private static String queueValue(Element queue, String name) {
        for (Element v : SgeXml.children(queue, "queuevalue")) {
            if (name.equals(v.getAttribute("name"))) {
                return v.getTextContent().trim();
            }
        }
        return null;
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

    private static int integer(String s, int fallback) {
        return s == null || s.isEmpty() ? fallback : Integer.parseInt(s);
    }

    private static Double decimal(String s) {
        return s == null ? null : Double.valueOf(s);
    }
}
