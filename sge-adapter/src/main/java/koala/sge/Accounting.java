package koala.sge;

import java.util.Optional;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerUnreachable;

/** Reads a finished job's record from {@code qacct}: how a job ended when DRMAA can no longer say. */
final class Accounting {
    private Accounting() {
    }

    static Optional<JobEnd> lookUp(SgeCommands sge, String id) {
        try {
            return parse(sge.qacct(id));
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
