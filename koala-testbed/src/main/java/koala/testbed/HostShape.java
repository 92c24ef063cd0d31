package koala.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A group of a cell's compute nodes that are alike: how many, and what each offers jobs. The
 * testbed's hosts share one machine, so these are SGE's figures, not the kernel's: {@code cores}
 * are the host's slots, {@code memoryMib} its consumable {@code h_vmem} (SGE books each job's claim
 * and kills a job that exceeds it), {@code gpus} its consumable {@code gpu} (no device is needed to
 * test the bookkeeping).
 *
 * @param memoryMib null: the host declares no memory (jobs are not limited)
 */
public record HostShape(int count, int cores, Long memoryMib, int gpus) {
    public static final int MAX_CORES = 256;
    public static final int MAX_GPUS = 16;
    /** 16 TiB: far beyond a host, well within SGE's and a long's range. */
    public static final long MAX_MEMORY_MIB = 16L * 1024 * 1024;

    private static final Pattern GROUP = Pattern.compile("(\\d+)x(.+)");
    private static final Pattern CORES = Pattern.compile("(\\d+)c");
    private static final Pattern GPUS = Pattern.compile("(\\d+)gpus?");
    private static final Pattern MEMORY = Pattern.compile("(\\d+)([MGT])");

    public HostShape {
        if (count < 1 || cores < 1 || cores > MAX_CORES || gpus < 0 || gpus > MAX_GPUS
                || memoryMib != null && (memoryMib < 1 || memoryMib > MAX_MEMORY_MIB)) {
            throw new IllegalArgumentException("host group " + count + "x" + cores + "c/" + memoryMib + "M/" + gpus
                    + "gpu: choose at least 1 host, 1.." + MAX_CORES + " cores, 0.." + MAX_GPUS + " GPUs, memory 1M.."
                    + (MAX_MEMORY_MIB / 1024 / 1024) + "T");
        }
    }

    /**
     * The groups of one cell from {@code --shape}'s text after {@code CELL=}: groups joined by
     * {@code +}, each {@code COUNTxPART/PART...} with the parts {@code Nc} (cores, required), a
     * memory {@code 512M}, {@code 8G} or {@code 1T} (binary units, as SGE's upper-case ones) and
     * {@code Ngpu}, e.g. {@code 12x4c/8G+4x16c/64G/2gpu}.
     */
    public static List<HostShape> parseGroups(String text) {
        List<HostShape> groups = new ArrayList<>();
        for (String group : text.split("\\+", -1)) {
            groups.add(parse(group.trim()));
        }
        return List.copyOf(groups);
    }

    static HostShape parse(String group) {
        Matcher m = GROUP.matcher(group);
        if (!m.matches()) {
            throw new IllegalArgumentException("host group '" + group + "': write COUNTxCORESc[/MEMORY][/Ngpu], e.g. "
                    + "4x16c/64G/2gpu");
        }
        Integer cores = null;
        Long memory = null;
        Integer gpus = null;
        for (String part : m.group(2).split("/", -1)) {
            Matcher c = CORES.matcher(part);
            Matcher g = GPUS.matcher(part.toLowerCase(Locale.ROOT));
            Matcher mem = MEMORY.matcher(part);
            if (c.matches() && cores == null) {
                cores = number(c.group(1), group);
            } else if (g.matches() && gpus == null) {
                gpus = number(g.group(1), group);
            } else if (mem.matches() && memory == null) {
                long n = number(mem.group(1), group);
                memory = switch (mem.group(2)) {
                    case "M" -> n;
                    case "G" -> n * 1024;
                    default -> n * 1024 * 1024;
                };
            } else {
                throw new IllegalArgumentException("host group '" + group + "': '" + part + "' is none of Nc (cores), "
                        + "a memory such as 8G or 512M, Ngpu; each at most once");
            }
        }
        if (cores == null) {
            throw new IllegalArgumentException("host group '" + group + "': how many cores? (e.g. 4c)");
        }
        return new HostShape(number(m.group(1), group), cores, memory, gpus == null ? 0 : gpus);
    }

    private static int number(String digits, String group) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("host group '" + group + "': " + digits + " is too large");
        }
    }

    /**
     * The execution host's {@code complex_values} for a host of this shape: its slots bound every
     * queue on it together, {@code h_vmem} and {@code gpu} are what jobs claim; {@code exclusive}
     * lets KOALA claim a whole host of several slots ({@code -l exclusive=true}) as elsewhere.
     */
    String complexValues() {
        List<String> values = new ArrayList<>();
        if (cores > 1) {
            values.add("exclusive=true");
        }
        if (gpus > 0) {
            values.add("gpu=" + gpus);
        }
        if (memoryMib != null) {
            values.add("h_vmem=" + memoryMib + "M");
        }
        values.add("slots=" + cores);
        return String.join(",", values);
    }

    /** How {@code testbed up} and the grid configuration's comment describe the group. */
    public String describe() {
        return count + " host" + (count == 1 ? "" : "s") + " of " + cores + " core" + (cores == 1 ? "" : "s")
                + (memoryMib == null ? "" : ", " + (memoryMib % 1024 == 0 ? memoryMib / 1024 + " GiB" : memoryMib + " MiB"))
                + (gpus == 0 ? "" : ", " + gpus + " GPU" + (gpus == 1 ? "" : "s"));
    }
}
