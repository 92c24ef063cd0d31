package koala.common.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A TCP port chosen now for a process that binds it later (a scheduler a test starts, an entity a
 * node launcher starts): one below the kernel's ephemeral range. A port the kernel hands out ({@code new
 * ServerSocket(0)}) lies inside that range, and any outgoing connection made before the process
 * binds may take it as its local port (a scheduler once failed to bind 41411 that way).
 */
public final class FreePort {
    private static final Path EPHEMERAL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;

    private FreePort() {
    }

    /** A port nothing listens on now, between 10000 and the ephemeral range, tried from a random start. */
    public static int any() {
        int end = ephemeralStart();
        int span = end - LOWEST;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            int port = LOWEST + (start + i) % span;
            if (bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + end);
    }

    static int ephemeralStart() {
        try {
            // read line by line: Files.readString trusts the size procfs reports and returns one byte
            return Integer.parseInt(Files.readAllLines(EPHEMERAL).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768; // Linux's default
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
