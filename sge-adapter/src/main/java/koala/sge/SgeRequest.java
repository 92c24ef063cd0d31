package koala.sge;

import koala.api.site.HostResources;

/**
 * What a job asks of SGE that bounds its memory, read from a native specification ({@code -pe smp 8
 * -l h_vmem=512M,gpu=1 -l h=fs0-n13}) or from the {@code category} line of its {@code qacct} record,
 * which repeats the job's requests in the same form. Only hard requests count: a {@code -soft} one
 * is not enforced.
 *
 * @param memoryPerSlotMib the {@code h_vmem} asked, per slot as SGE books and limits it; null when none
 * @param slots            the slots of its parallel environment ({@code -pe NAME N}; the lower bound of a
 *                         range), 1 without one
 */
record SgeRequest(Long memoryPerSlotMib, int slots) {
    static SgeRequest parse(String spec) {
        Long memory = null;
        int slots = 1;
        boolean soft = false;
        String[] words = spec == null ? new String[0] : spec.trim().split("\\s+");
        for (int i = 0; i < words.length; i++) {
            switch (words[i]) {
                case "-soft" -> soft = true;
                case "-hard" -> soft = false;
                case "-l" -> {
                    if (i + 1 < words.length && !soft) {
                        Long asked = memory(words[++i]);
                        memory = asked != null ? asked : memory;
                    }
                }
                case "-pe" -> {
                    if (i + 2 < words.length) {
                        slots = lowerBound(words[i + 2]);
                        i += 2;
                    }
                }
                default -> {
                }
            }
        }
        return new SgeRequest(memory, slots);
    }

    /** What SGE limits the job to on its host: {@code h_vmem} times its slots; null when it asked none. */
    Long claimMib() {
        return memoryPerSlotMib == null ? null : memoryPerSlotMib * slots;
    }

    /** The same request with the slots SGE granted ({@code qacct}'s {@code slots}). */
    SgeRequest withSlots(int granted) {
        return new SgeRequest(memoryPerSlotMib, granted);
    }

    private static Long memory(String resources) {
        for (String pair : resources.split(",")) {
            String[] kv = pair.split("=", 2);
            if (kv.length == 2 && kv[0].equals(HostResources.MEMORY_COMPLEX)) {
                try {
                    return SgeMemory.mib(kv[1]);
                } catch (IllegalArgumentException e) {
                    return null; // SGE itself refuses such a job; its memory is not a figure
                }
            }
        }
        return null;
    }

    private static int lowerBound(String range) {
        String low = range.contains("-") ? range.substring(0, range.indexOf('-')) : range;
        try {
            return low.isEmpty() ? 1 : Math.max(1, Integer.parseInt(low));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
