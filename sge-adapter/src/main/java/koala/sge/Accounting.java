package koala.sge;

import java.util.Map;
import java.util.Optional;
import koala.api.site.MemoryUse;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerUnreachable;

/**
 * Reads a finished job's record from {@code qacct}: how a job ended when DRMAA can no longer say, and
 * what it used of the memory it claimed.
 *
 * <p>How SGE stops a job for memory (Son of Grid Engine 8.1.9, measured on the testbed): a job asking
 * {@code -pe smp N -l h_vmem=M} has each of its processes' address space limited to N×M
 * ({@code RLIMIT_AS}), and the execution daemon adds up what the job's processes use and kills the whole
 * job with SIGKILL once that passes N×M. A program that asks for more than N×M at once fails its own
 * allocation (Python's {@code MemoryError}) and the job ends with whatever status its command returns,
 * SGE recording nothing; a job that grows past it in several processes is killed, and its record says
 * {@code failed 37 : qmaster enforced h_rt, h_cpu, or h_vmem limit}, {@code exit_status 137}, and a
 * {@code maxvmem} above N×M. Only the second is SGE stopping a job for its memory.
 */
final class Accounting {
    /** The {@code failed} code of a job the execution daemon killed for passing a hard limit. */
    static final String LIMIT_ENFORCED = "37";

    private Accounting() {
    }

    static Optional<JobEnd> lookUp(SgeCommands sge, String id) {
        return lookUpEnded(sge, id).map(EndedJob::end);
    }

    /** The job's end with its memory, from {@code qacct -j ID}; empty when SGE has no record of it (yet). */
    static Optional<EndedJob> lookUpEnded(SgeCommands sge, String id) {
        try {
            String record = sge.qacct(id);
            return parse(record).map(end -> new EndedJob(id, end, memory(record)));
        } catch (ManagerUnreachable e) {
            return Optional.empty();
        }
    }

    static Optional<JobEnd> parse(String qacct) {
        String failed = field(qacct, "failed");
        String exit = field(qacct, "exit_status");
        if (exit == null) {
            return Optional.empty();
        }
        if (failed != null && !failed.startsWith("0")) {
            return Optional.of(new JobEnd.Failed("SGE reports failure: " + failed));
        }
        int status = Integer.parseInt(exit.split("\\s+")[0]);
        return Optional.of(status > 128 ? new JobEnd.Signalled(String.valueOf(status - 128)) : new JobEnd.Exited(status));
    }

    /**
     * What the record says of memory: the claim from its {@code category} (the job's requests) and its
     * granted {@code slots}, the use from {@code maxvmem}; exceeded when SGE enforced a limit
     * ({@code failed 37}) and the job had used more than its claim. Null when it says neither.
     */
    static MemoryUse memory(String qacct) {
        SgeRequest request = SgeRequest.parse(Optional.ofNullable(field(qacct, "category")).orElse(""));
        String slots = field(qacct, "slots");
        if (slots != null && slots.matches("\\d+")) {
            request = request.withSlots(Integer.parseInt(slots));
        }
        Double max = bytes(field(qacct, "maxvmem"));
        String failed = field(qacct, "failed");
        boolean enforced = failed != null && failed.split("\\s+")[0].equals(LIMIT_ENFORCED);
        return memory(request.claimMib(), max, enforced);
    }

    /**
     * The memory verdict from what SGE tells, by {@code qacct} or DRMAA alike: the job was stopped for
     * memory when SGE stopped it ({@code killedBySge}) and its most used passed its claim.
     *
     * @param maxBytes SGE's {@code maxvmem}, null when not told
     */
    static MemoryUse memory(Long claimMib, Double maxBytes, boolean killedBySge) {
        if (claimMib == null && maxBytes == null) {
            return null;
        }
        Long maxMib = maxBytes == null ? null : (long) Math.ceil(maxBytes / (1024.0 * 1024.0));
        boolean exceeded = killedBySge && claimMib != null && maxBytes != null
                && maxBytes > claimMib * 1024.0 * 1024.0;
        return new MemoryUse(claimMib, maxMib, exceeded);
    }

    /** DRMAA's resource usage of a finished job: its {@code maxvmem} in bytes ({@code "1161736192.0000"}). */
    static Double maxvmem(Map<?, ?> usage) {
        Object v = usage == null ? null : usage.get("maxvmem");
        try {
            return v == null ? null : Double.valueOf(v.toString());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** qacct's sizes, in powers of 1024: {@code 1.082GB}, {@code 1009.906MB}, {@code 4.000KB}, {@code 0.000B}. */
    static Double bytes(String value) {
        if (value == null) {
            return null;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9.]+)\\s*([KMGT]?)B?").matcher(value.trim());
        if (!m.matches()) {
            return null;
        }
        int power = "KMGT".indexOf(m.group(2).isEmpty() ? "_" : m.group(2)) + 1;
        return Double.parseDouble(m.group(1)) * Math.pow(1024, power);
    }

    private static String field(String text, String name) {
        for (String line : text.split("\n")) {
            String[] parts = line.trim().split("\\s+", 2);
            if (parts.length == 2 && parts[0].equals(name)) {
                return parts[1].trim();
            }
        }
        return null;
    }
}
