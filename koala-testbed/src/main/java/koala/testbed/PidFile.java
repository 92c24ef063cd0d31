package koala.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** A daemon's pid file, and whether the daemon it names still runs. */
final class PidFile {
    private PidFile() {
    }

    /**
     * The pid in {@code file} if that process is alive and runs {@code daemon} (its command ends so). The
     * file of a daemon that died stays behind, and the kernel may since have given its number to a thread
     * of another process, which {@link ProcessHandle#of} finds all the same (Linux answers for a thread's
     * id under {@code /proc} too): the number counts only while it is a process's own, its thread group's.
     */
    static Optional<Long> daemon(Path file, String daemon) {
        try {
            long pid = Long.parseLong(Files.readString(file).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> isProcess(pid))
                    .filter(p -> p.info().command().map(c -> c.endsWith(daemon)).orElse(false)).map(p -> pid);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code pid} is a process of its own, not another thread of one ({@code Tgid} in its status). */
    private static boolean isProcess(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(l -> l.startsWith("Tgid:")).findFirst()
                    .map(l -> l.substring("Tgid:".length()).trim().equals(Long.toString(pid))).orElse(false);
        } catch (IOException e) {
            return false; // gone meanwhile
        }
    }
}
