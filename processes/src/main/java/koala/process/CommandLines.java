package koala.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A process's whole command line, its arguments joined by spaces. The JDK's
 * {@code ProcessHandle.Info.commandLine()} cuts it at 4096 characters, which a JVM with KOALA's
 * class path passes before its first argument; Linux's {@code /proc/PID/cmdline} has all of it.
 */
public final class CommandLines {
    private CommandLines() {
    }

    public static Optional<String> of(ProcessHandle process) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            if (raw.length == 0) {
                return Optional.empty();
            }
            return Optional.of(new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip());
        } catch (IOException e) {
            return process.info().commandLine();
        }
    }
}
